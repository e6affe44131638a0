import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// One plugin file of a folder, read offline through the folder's descriptor: no path lookup beyond the folder.
/// It is opened first and its status taken on the open file, so that the index can check the file (its kind,
/// who may write it, whether it is the one listed) before reading it, without looking it up again.
package struct PluginFileReader: ~Copyable {
    /// The object the C reader fills: why the file could not be opened, or what it holds once read; nil when
    /// out of memory.
    private let object: UnsafeMutablePointer<bh_object>?
    private let descriptor: Int32
    let path: String
    /// The open file's status; nil when it could not be opened.
    let status: stat?

    /// Opens the file `name` of the folder open as `folder`; `path` is what its records and diagnostics name.
    init(opening name: String, in folder: Int32, path: String) {
        self.path = path
        object = bh_object_for_file(path)
        guard let object else {
            descriptor = -1
            status = nil
            return
        }
        var status = stat()
        descriptor = bh_open_file_at(folder, name, &status, object)
        self.status = descriptor >= 0 ? status : nil
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if let object { bh_object_release(object) }
    }

    /// Why the file could not be opened; nil when it was.
    var failure: ObjectAnnotations? {
        guard descriptor < 0 else { return nil }
        guard let object else { return Self.outOfMemory(path) }
        return SectionReader.annotations(of: object)
    }

    /// The machine and class (`e_machine`, `EI_CLASS`) of the opened file's ELF header; nil when it has none.
    var machine: (machine: UInt32, elfClass: UInt8)? {
        guard descriptor >= 0 else { return nil }
        var header = (UInt64(0), UInt64(0), UInt32(0))
        let count = withUnsafeMutableBytes(of: &header) { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return withUnsafeBytes(of: header) { bytes in
            guard count == 20, bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else { return nil }
            // EI_DATA 2: a big-endian file.
            let machine = bytes[5] == 2 ? UInt32(bytes[18]) << 8 | UInt32(bytes[19]) : UInt32(bytes[19]) << 8 | UInt32(bytes[18])
            return (machine, bytes[4])
        }
    }

    /// How the opened file links (read through the open descriptor); nil when it was not opened or cannot tell.
    func linkage() -> ObjectLinkage? {
        guard descriptor >= 0, let status, case .success(let linkage) = ObjectLinkage.read(
            descriptor: descriptor, size: Int(status.st_size), path: path)
        else { return nil }
        return linkage
    }

    /// What the opened file holds (a file that is not a regular one is named, not read).
    consuming func read() -> ObjectAnnotations {
        guard let object, var status else { return failure ?? Self.outOfMemory(path) }
        bh_read_open_file(descriptor, &status, object)
        return SectionReader.annotations(of: object)
    }

    private static func outOfMemory(_ path: String) -> ObjectAnnotations {
        ObjectAnnotations(
            object: LoadedObject(id: 0, path: path, buildID: nil, baseAddress: 0), isAnnotated: false, records: [],
            diagnostics: [RegistryDiagnostic(.unreadableObject(reason: "out of memory"), objectPath: path)])
    }
}
