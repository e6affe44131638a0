#if canImport(Glibc)
import Glibc
#endif

/// The cache file's binary format, read without splitting or copying: a warm start decodes it in place.
///
/// ```
/// header   "BHPINDEX"  version: u32 (2)  zero: u32  checksum: u64 (of everything after the header)
/// folder   its path, NUL-terminated
/// count    u32, then each plugin:
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
        /// The byte range of the entry's sections, read by `records(of:path:)`.
        let sections: Range<Int>
        let sectionCount: Int
    }

    /// A decoded cache: the bytes it was read from and its entries, by file name.
    struct Decoded {
        let bytes: [UInt8]
        let entries: [String: Entry]
        /// Names of entries that are not plain file names of the folder.
        let outside: [String]
    }

    package static func encode(_ plugins: [IndexedPlugin], folder: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + folder.utf8.count + plugins.reduce(0) { $0 + 160 + $1.records.count * 96 })
        out.append(contentsOf: UnsafeRawBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount))
        append(version, to: &out)
        append(UInt32(0), to: &out)
        append(UInt64(0), to: &out)
        out.append(contentsOf: folder.utf8)
        out.append(0)
        append(UInt32(plugins.count), to: &out)
        for plugin in plugins {
            let name = Array(plugin.fileName.utf8.prefix(Int(UInt16.max)))
            append(UInt16(name.count), to: &out)
            out.append(contentsOf: name)
            let stamp = plugin.stamp
            for value in [stamp.size, stamp.modified.seconds, stamp.modified.nanoseconds, stamp.changed.seconds, stamp.changed.nanoseconds] {
                append(UInt64(bitPattern: value), to: &out)
            }
            append(stamp.inode, to: &out)
            append(stamp.device, to: &out)
            let buildID = Array((plugin.buildID ?? "").utf8.prefix(Int(UInt8.max)))
            out.append((plugin.isAnnotated ? 1 : 0) | (plugin.buildID == nil ? 0 : 2))
            out.append(UInt8(buildID.count))
            out.append(contentsOf: buildID)
            // Sections in the order their records come, so that the records decode in the order they were read.
            var sections: [(number: Int, records: [AnnotationRecord])] = []
            for record in plugin.records {
                guard let number = SectionName.all.firstIndex(of: record.origin.section) else { continue }
                if let known = sections.firstIndex(where: { $0.number == number }) {
                    sections[known].records.append(record)
                } else {
                    sections.append((number, [record]))
                }
            }
            out.append(UInt8(sections.count))
            for (number, records) in sections {
                out.append(UInt8(number))
                append(UInt32(records.count), to: &out)
                var image: [UInt8] = []
                for record in records.sorted(by: { $0.origin.offset < $1.origin.offset }) {
                    let offset = record.origin.offset
                    if image.count < offset { image += repeatElement(0, count: offset - image.count) }
                    // Records overlapping one another cannot come from one section; the count check at
                    // decoding then refuses the entry.
                    image.removeSubrange(min(offset, image.count)...)
                    image += record.text.utf8
                    image.append(0)
                }
                append(UInt32(image.count), to: &out)
                out += image
            }
        }
        let sum = out.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        withUnsafeBytes(of: sum.littleEndian) { out.replaceSubrange(16..<24, with: $0) }
        return out
    }

    /// The entries of a cache of `folder`. Checks the header, the checksum and every length; the records
    /// are parsed later, only for the entries of files the folder holds (`records(of:in:path:)`).
    static func decode(_ bytes: [UInt8], folder: String) throws(Failure) -> Decoded {
        let read: Result<([String: Entry], [String]), Failure> = bytes.withUnsafeBytes { raw in
            Result { () throws(Failure) in try table(of: raw, folder: folder) }
        }
        let (entries, outside) = try read.get()
        return Decoded(bytes: bytes, entries: entries, outside: outside)
    }

    private static func table(of raw: UnsafeRawBufferPointer, folder: String) throws(Failure) -> ([String: Entry], [String]) {
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
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(Int(count))
        var outside: [String] = []
        for number in 0..<Int(count) {
            guard let entry = reader.entry() else { throw .corrupt("bad plugin entry \(number + 1)") }
            let name = String(decoding: entry.name, as: UTF8.self)
            guard isPlainFileName(entry.name) else {
                outside.append(name)
                continue
            }
            guard entries.updateValue(entry.entry, forKey: name) == nil else { throw .corrupt("plugin \(name) listed twice") }
        }
        guard reader.offset == raw.count else { throw .corrupt("bytes after the last plugin") }
        return (entries, outside)
    }

    /// The cached records of a plugin, parsed as strictly as from its file; nil if any fails or a section
    /// holds another number of records than the entry says.
    static func records(of entry: Entry, in bytes: [UInt8], path: String) -> [AnnotationRecord]? {
        bytes.withUnsafeBytes { raw -> [AnnotationRecord]? in
            var reader = Reader(UnsafeRawBufferPointer(rebasing: raw[..<entry.sections.upperBound]), at: entry.sections.lowerBound)
            var records: [AnnotationRecord] = []
            for _ in 0..<entry.sectionCount {
                guard let number = reader.u8(), let count = reader.u32(), let length = reader.u32(), let image = reader.bytes(length)
                else { return nil }
                let parsed = RecordParser.records(inSection: SectionName.all[Int(number)], bytes: image, objectPath: path)
                guard parsed.diagnostics.isEmpty, parsed.records.count == Int(count) else { return nil }
                if records.isEmpty { records = parsed.records } else { records += parsed.records }
            }
            return records
        }
    }

    /// A name that stays inside the folder: not empty, no `/`, not `.` or `..`, valid UTF-8, no NUL.
    static func isPlainFileName(_ bytes: UnsafeRawBufferPointer) -> Bool {
        !bytes.isEmpty && !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0)
            && !bytes.elementsEqual([0x2E]) && !bytes.elementsEqual([0x2E, 0x2E])
            && String(validating: bytes, as: UTF8.self) != nil
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
