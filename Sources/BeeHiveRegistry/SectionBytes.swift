import CSectionShim

/// One section's bytes, shared by every record parsed from it: the shim's copy of a loaded object's section
/// (kept alive through the object's reference count; the shim never changes an object it has published), or
/// bytes copied from Swift, or a part of a larger image that stays alive with it (a plugin index cache: there, one
/// for all the sections of a plugin). One per section, so that records need no allocation of their own.
final class SectionBytes: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
    /// What every record of the section shares in its origin, kept here so that a record holds one reference.
    let objectPath: String
    /// The section the parser reads the bytes as; empty for a plugin's cached sections. A record's own section
    /// is its kind's (`AnnotationRecord.origin`).
    let section: String
    private let object: UnsafeMutablePointer<bh_object>?
    /// The image `buffer` lies in, when it is not the shim's object or a copy of its own.
    private let image: PluginIndexCacheImage?

    init(section index: Int, of object: UnsafeMutablePointer<bh_object>, name: String, objectPath: String) {
        self.objectPath = objectPath
        section = name
        self.object = bh_object_retain(object)
        let section = object.pointee.sections[index]
        buffer = UnsafeRawBufferPointer(start: section.data, count: section.data == nil ? 0 : section.size)
        image = nil
    }

    /// `bytes`, a part of `image`, without copying them: the records share the image, which lives as long as they do.
    init(_ bytes: UnsafeRawBufferPointer, in image: PluginIndexCacheImage, section: String, objectPath: String) {
        self.objectPath = objectPath
        self.section = section
        buffer = bytes
        object = nil
        self.image = image
    }

    init(copying bytes: UnsafeRawBufferPointer, section: String, objectPath: String) {
        self.objectPath = objectPath
        self.section = section
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        if bytes.count > 0 { copy.copyMemory(from: bytes) }
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<bytes.count])
        object = nil
        image = nil
    }

    deinit {
        if let object {
            bh_object_release(object)
        } else if image == nil {
            UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
        }
    }

    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }
}
