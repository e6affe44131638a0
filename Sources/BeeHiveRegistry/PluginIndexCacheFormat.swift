#if canImport(Glibc)
import Glibc
#endif

/// The cache file's binary format, read without splitting or copying: a warm start decodes it in place.
///
/// ```
/// header   "BHPINDEX"  version: u32 (2)  zero: u32  checksum: u64 (of everything after the header)
/// folder   its path, NUL-terminated
/// count    u32, then each plugin, ordered by file name:
///   name length: u16, name
///   size, modified seconds, modified nanoseconds, changed seconds, changed nanoseconds: i64; inode, device: u64
///   flags: u8 (1 annotated, 2 has a build-id), build-id length: u8, build-id (hex)
///   section count: u8, then each section: section number (SectionName.all): u8, record count: u32,
///   image length: u32, image (the plugin's records at their offsets in the section, NUL between them)
/// ```
///
/// Integers are little-endian. Each step of the checksum is a bijection of its state, so a change to any one
/// 8-byte word is always caught; a file cut short fails the checksum or the length checks. The records of an
/// entry are still parsed as strictly as those of a file, and must come to the count stored.
package enum PluginIndexCacheFormat {
    static let magic: StaticString = "BHPINDEX"
    static let version: UInt32 = 2
    static let headerSize = 24

    package enum Failure: Error {
        case corrupt(String)
        case foreign(String)
    }

    /// A plugin as the cache remembers it: its fields, and where its sections lie in the cache's bytes.
    struct Entry {
        let stamp: PluginFileStamp
        let buildID: String?
        let isAnnotated: Bool
        /// The byte range of the entry's sections, read by `records(of:in:path:layouts:)`.
        let sections: Range<Int>
        let sectionCount: Int
    }

    /// A decoded cache: the bytes it was read from and its entries, ordered by file name as the index orders
    /// its plugins, so that the index meets each entry walking both in step, without hashing a name.
    struct Decoded {
        let image: PluginIndexCacheImage
        let entries: [(name: String, entry: Entry)]
        /// Names of entries that are not plain file names of the folder.
        let outside: [String]
    }

    /// The cache of `folder` holding `plugins`, in index order (by file name, which decoding checks).
    package static func encode(_ plugins: [IndexedPlugin], folder: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + folder.utf8.count + plugins.reduce(0) { $0 + 160 + $1.records.count * 96 })
        out.append(contentsOf: UnsafeRawBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount))
        append(version, to: &out)
        append(UInt32(0), to: &out)
        append(UInt64(0), to: &out)
        appendUTF8(folder, limit: Int.max, to: &out)
        out.append(0)
        append(UInt32(plugins.count), to: &out)
        var sectionOrder: [Int] = []
        var numbers: [Int] = []
        var offsets: [Int] = []
        var members: [Int] = []
        for plugin in plugins {
            append(UInt16(min(plugin.fileName.utf8.count, Int(UInt16.max))), to: &out)
            appendUTF8(plugin.fileName, limit: Int(UInt16.max), to: &out)
            let stamp = plugin.stamp
            append(stamp.size, to: &out)
            append(stamp.modified.seconds, to: &out)
            append(stamp.modified.nanoseconds, to: &out)
            append(stamp.changed.seconds, to: &out)
            append(stamp.changed.nanoseconds, to: &out)
            append(stamp.inode, to: &out)
            append(stamp.device, to: &out)
            out.append((plugin.isAnnotated ? 1 : 0) | (plugin.buildID == nil ? 0 : 2))
            let buildID = plugin.buildID ?? ""
            out.append(UInt8(min(buildID.utf8.count, Int(UInt8.max))))
            appendUTF8(buildID, limit: Int(UInt8.max), to: &out)
            // Sections in the order their first records come, so that the records decode in the order they were
            // read. Each record's section number is noted once (scratch arrays reused across plugins), and its
            // bytes are copied straight from where it was read, without making its text or origin strings.
            sectionOrder.removeAll(keepingCapacity: true)
            numbers.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            for record in plugin.records {
                let origin = record.origin
                let number = SectionName.all.firstIndex(of: origin.section) ?? -1
                numbers.append(number)
                offsets.append(origin.offset)
                if number >= 0, !sectionOrder.contains(number) { sectionOrder.append(number) }
            }
            out.append(UInt8(sectionOrder.count))
            for number in sectionOrder {
                members.removeAll(keepingCapacity: true)
                for position in numbers.indices where numbers[position] == number { members.append(position) }
                out.append(UInt8(number))
                append(UInt32(members.count), to: &out)
                let lengthAt = out.count
                append(UInt32(0), to: &out)
                let image = out.count
                if !zip(members, members.dropFirst()).allSatisfy({ offsets[$0] < offsets[$1] }) {
                    members.sort { offsets[$0] < offsets[$1] }
                }
                for position in members {
                    let place = image + offsets[position]
                    if out.count < place { out.append(contentsOf: repeatElement(0, count: place - out.count)) }
                    // Records overlapping one another cannot come from one section; the count check at
                    // decoding then refuses the entry.
                    if out.count > place { out.removeSubrange(place...) }
                    plugin.records[position].withTextBytes { out.append(contentsOf: $0) }
                    out.append(0)
                }
                withUnsafeBytes(of: UInt32(out.count - image).littleEndian) { out.replaceSubrange(lengthAt..<(lengthAt + 4), with: $0) }
            }
        }
        seal(&out)
        return out
    }

    /// Writes into the header (bytes 16..<24) the checksum of everything after it; `bytes` holds at least a
    /// header.
    static func seal(_ bytes: inout [UInt8]) {
        let sum = bytes.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        withUnsafeBytes(of: sum.littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
    }

    /// The entries of a cache of `folder`. Checks the header, the checksum and every length; the records
    /// are parsed later, only for the entries of files the folder holds (`records(of:in:path:layouts:)`).
    static func decode(_ image: PluginIndexCacheImage, folder: String) throws(Failure) -> Decoded {
        let (entries, outside) = try table(of: image.bytes, folder: folder)
        return Decoded(image: image, entries: entries, outside: outside)
    }

    private static func table(
        of raw: UnsafeRawBufferPointer, folder: String
    ) throws(Failure) -> ([(name: String, entry: Entry)], [String]) {
        guard raw.count >= headerSize,
            memcmp(raw.baseAddress!, magic.utf8Start, magic.utf8CodeUnitCount) == 0
        else {
            let textFormat = raw.starts(with: "beehive-plugin-index ".utf8)
            throw .corrupt(textFormat ? "the text format of an older BeeHive" : "not a plugin index cache (no BHPINDEX header)")
        }
        var reader = Reader(raw, at: magic.utf8CodeUnitCount)
        guard reader.u32() == version else { throw .corrupt("written by another version of BeeHive") }
        guard reader.u32() == 0 else { throw .corrupt("bad header") }
        guard reader.u64() == checksum(UnsafeRawBufferPointer(rebasing: raw[headerSize...])) else {
            throw .corrupt("checksum mismatch (damaged or cut short)")
        }
        guard let folderEnd = raw[reader.offset...].firstIndex(of: 0) else { throw .corrupt("no folder") }
        let cachedFolder = UnsafeRawBufferPointer(rebasing: raw[reader.offset..<folderEnd])
        guard cachedFolder.elementsEqual(folder.utf8) else { throw .foreign(String(decoding: cachedFolder, as: UTF8.self)) }
        reader.offset = folderEnd + 1
        guard let count = reader.u32(), Int(count) <= raw.count / 60 else { throw .corrupt("bad plugin count") }
        var entries: [(name: String, entry: Entry)] = []
        entries.reserveCapacity(Int(count))
        var outside: [String] = []
        for number in 0..<Int(count) {
            guard let entry = reader.entry() else { throw .corrupt("bad plugin entry \(number + 1)") }
            let name = String(decoding: entry.name, as: UTF8.self)
            guard isPlainFileName(entry.name) else {
                outside.append(name)
                continue
            }
            if let last = entries.last?.name, !(last < name) { throw .corrupt("plugin \(name) out of order or listed twice") }
            entries.append((name, entry.entry))
        }
        guard reader.offset == raw.count else { throw .corrupt("bytes after the last plugin") }
        return (entries, outside)
    }

    /// The cached records of a plugin, parsed as strictly as from its file; nil if any fails or a section
    /// holds another number of records than the entry says. `layouts` is scratch space, reused across calls
    /// so that a warm start allocates it once rather than once per plugin.
    static func records(
        of entry: Entry, in image: PluginIndexCacheImage, path: String, layouts: inout [RecordLayout]
    ) -> [AnnotationRecord]? {
        var reader = Reader(UnsafeRawBufferPointer(rebasing: image.bytes[..<entry.sections.upperBound]), at: entry.sections.lowerBound)
        var records: [AnnotationRecord] = []
        var diagnostics: [RegistryDiagnostic] = []
        for _ in 0..<entry.sectionCount {
            guard let number = reader.u8(), let count = reader.u32(), let length = reader.u32(), let bytes = reader.bytes(length)
            else { return nil }
            if records.isEmpty { records.reserveCapacity(entry.sectionCount * Int(min(count, 64))) }
            // Parsed as a section read from a file is parsed; the section's records point into the image.
            let section = SectionBytes(bytes, in: image, section: SectionName.all[Int(number)], objectPath: path)
            layouts.removeAll(keepingCapacity: true)
            RecordParser.parse(section, index: 0, into: &layouts, &diagnostics)
            guard diagnostics.isEmpty, layouts.count == Int(count) else { return nil }
            for layout in layouts { records.append(AnnotationRecord(bytes: section, layout: layout)) }
        }
        return records
    }

    /// A name that stays inside the folder: not empty, no `/`, not `.` or `..`, valid UTF-8, no NUL. One pass
    /// over the bytes; only a name that is not ASCII needs the standard library's UTF-8 check.
    static func isPlainFileName(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        var isASCII = true
        for byte in bytes {
            if byte == UInt8(ascii: "/") || byte == 0 { return false }
            if byte >= 0x80 { isASCII = false }
        }
        if bytes.count <= 2, bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) { return false }
        return isASCII || String(validating: bytes, as: UTF8.self) != nil
    }

    /// 64 bits at a time: each step multiplies by an odd constant and folds the high bits down, both
    /// invertible, so the state after a changed word differs and stays different.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var index = 0
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
            hash ^= hash >> 29
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        var tail: UInt64 = 0
        for byte in bytes[index...].reversed() { tail = tail << 8 | UInt64(byte) }
        mix(tail)
        return hash
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// The first `limit` bytes of `text`, copied at once: appending its `utf8` view went byte by byte.
    private static func appendUTF8(_ text: String, limit: Int, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0.prefix(limit))) }
    }

    /// Reads fields off a buffer; every read returns nil past its end.
    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset: Int

        init(_ raw: UnsafeRawBufferPointer, at offset: Int) {
            self.raw = raw
            self.offset = offset
        }

        mutating func bytes(_ count: UInt32?) -> UnsafeRawBufferPointer? {
            guard let count, Int(count) <= raw.count - offset else { return nil }
            defer { offset += Int(count) }
            return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + Int(count))])
        }

        mutating func integer<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
            guard MemoryLayout<Value>.size <= raw.count - offset else { return nil }
            defer { offset += MemoryLayout<Value>.size }
            return Value(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Value.self))
        }

        mutating func u8() -> UInt8? { integer(UInt8.self) }
        mutating func u32() -> UInt32? { integer(UInt32.self) }
        mutating func u64() -> UInt64? { integer(UInt64.self) }
        mutating func i64() -> Int64? { integer(Int64.self) }

        /// One plugin entry; its sections are checked for length and section number, not parsed.
        mutating func entry() -> (name: UnsafeRawBufferPointer, entry: Entry)? {
            guard let nameLength = integer(UInt16.self), let name = bytes(UInt32(nameLength)),
                let size = i64(), let modified = i64(), let modifiedNanoseconds = i64(), let changed = i64(),
                let changedNanoseconds = i64(), let inode = u64(), let device = u64(),
                let flags = u8(), flags & ~3 == 0, let buildIDLength = u8(), let buildID = bytes(UInt32(buildIDLength)),
                flags & 2 != 0 || buildIDLength == 0,
                let sectionCount = u8(), Int(sectionCount) <= SectionName.all.count
            else { return nil }
            let sectionsStart = offset
            for _ in 0..<sectionCount {
                guard let number = u8(), Int(number) < SectionName.all.count, u32() != nil, let length = u32(), bytes(length) != nil
                else { return nil }
            }
            let stamp = PluginFileStamp(
                size: size, modified: .init(seconds: modified, nanoseconds: modifiedNanoseconds),
                changed: .init(seconds: changed, nanoseconds: changedNanoseconds), inode: inode, device: device)
            return (
                name,
                Entry(
                    stamp: stamp, buildID: flags & 2 == 0 ? nil : String(decoding: buildID, as: UTF8.self),
                    isAnnotated: flags & 1 != 0, sections: sectionsStart..<offset, sectionCount: Int(sectionCount))
            )
        }
    }
}
