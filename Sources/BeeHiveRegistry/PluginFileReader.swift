import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// Reads one plugin file of a folder offline, through the folder's descriptor: no path lookup beyond the
/// folder, and the file's status taken on the open file once read, so that the index can tell whether it
/// changed since it was listed without looking it up again.
package enum PluginFileReader {
    /// What a plugin file holds, and its status once read (nil when it could not be opened or stat'ed).
    package typealias Read = (annotations: ObjectAnnotations, status: stat?)

    /// Reads the file `name` of the folder open as `folder`; `path` is what its records and diagnostics name.
    package static func read(in folder: Int32, name: String, path: String) -> Read {
        var status = stat()
        var hasStatus: Int32 = 0
        guard let object = bh_read_file_at(folder, name, path, &status, &hasStatus) else {
            let object = LoadedObject(id: 0, path: path, buildID: nil, baseAddress: 0)
            let annotations = ObjectAnnotations(
                object: object, isAnnotated: false, records: [],
                diagnostics: [RegistryDiagnostic(.unreadableObject(reason: "out of memory"), objectPath: path)])
            return (annotations, nil)
        }
        defer { bh_object_release(object) }
        return (SectionReader.annotations(of: object), hasStatus != 0 ? status : nil)
    }
}
