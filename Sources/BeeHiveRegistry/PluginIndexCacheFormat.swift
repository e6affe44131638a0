#if canImport(Glibc)
import Glibc
#endif

/// The cache file's binary format, read without splitting or copying: a warm start decodes it in place.
///
/// ```
/// header   "BHPINDEX"  version: u32 (5)  host: u32  checksum: u64 (of everything after the header)
/// folder   its path, NUL-terminated
/// count    u32, then each plugin, ordered by the bytes of its file name:
///   name length: u16, name
///   device, inode: u64; size, modified seconds, modified nanoseconds, changed seconds, changed nanoseconds: i64
///   flags: u8 (1 annotated, 2 has a build-id), build-id length: u8, build-id (hex)
///   section count: u8, then each section: section number (SectionName.all): u8, record count: u32,
///   image length: u32, image (the plugin's records at their offsets in the section, NUL after each),
///   then each record's layout, by offset (30 bytes):
///     offset in the image: u32, length: u16, name, type, qualifier: u16 start and end each (from the
///     record's first byte), priority: i64, kind, level, scope: u8 (their order), flags: u8 (1 async, 2 on-demand)
/// ```
///
/// `host` folds the interface, the Swift runtime and its toolchain of the BeeHive that wrote the cache: an index only caches
/// plugins this host can load (`PluginIncompatibility`), so a cache written by another host is rebuilt.
///
/// Integers are little-endian. Each step of the checksum is a bijection of its lane's state, so a change to
/// any one 8-byte word is always caught; a file cut short fails the checksum or the length checks. Records
/// are not parsed again: each keeps the layout the record parser found when it read the plugin file, and
/// decoding checks that every layout lies inside its record, ends at its NUL and declares a kind its section
/// holds, so that no cache can make a record read outside its bytes. A cache that passes those checks with
/// layouts that do not match their text was forged by someone allowed to write it (see `PluginTrustPolicy`),
/// who could as well have forged the text.
package enum PluginIndexCacheFormat {
    static let magic: StaticString = "BHPINDEX"
    static let version: UInt32 = 5
    static let headerSize = 24

    /// The host's interface fingerprint, whether it runs on its own Swift runtime and the toolchain of that
    /// runtime, folded to 32 bits: what decided which plugins a cache holds.
    static let host: UInt32 = {
        var value = PluginIncompatibility.hostInterface
        if case .embedded = SwiftRuntime.current { value = ~value }
        // FNV-1a of the toolchain's line.
        var toolchain: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (SwiftRuntime.toolchain ?? "").utf8 { toolchain = (toolchain ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value ^= toolchain
        return UInt32(truncatingIfNeeded: value ^ (value >> 32))
    }()
    /// The bytes of one record's layout.
    static let layoutSize = 30

    package enum Failure: Error {
        case corrupt(String)
        case foreign(String)
        /// Written by a build of BeeHive with another cache format or interface: expected after an upgrade,
        /// not damage.
        case otherVersion
    }

    /// A plugin as the cache remembers it: its fields, and where its sections lie in the cache's bytes.
    struct Entry {
        let stamp: PluginFileStamp
        let buildID: String?
        let isAnnotated: Bool
        /// The byte range of the entry's sections, read by `records(of:in:path:)`.
        let sections: Range<Int>
        let sectionCount: Int
        /// The records of all its sections.
        let recordCount: Int
    }

    /// A decoded cache: the bytes it was read from and its entries, ordered by name as the index orders
    /// its plugins, so that the index meets each entry walking both in step, without hashing a name.
    struct Decoded {
        let image: PluginIndexCacheImage
        let entries: [(name: PluginFileName, entry: Entry)]
        /// Names of entries that are not plain file names of the folder.
        let outside: [String]
    }

    /// The cache of `folder` holding `plugins`, in index order (by the bytes of their file names, which
    /// decoding checks). A record whose layout cannot be had (one made from values, whose text the parser
    /// refuses or puts in another section) is written with a layout that decoding refuses, so that its
    /// plugin is read from its file again.
    package static func encode(_ plugins: [IndexedPlugin], folder: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + folder.utf8.count + plugins.reduce(0) { $0 + 160 + $1.records.count * 128 })
        out.append(contentsOf: UnsafeRawBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount))
        append(version, to: &out)
        append(host, to: &out)
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
            let buildID = plugin.buildID ?? ""
            appendFields(58, to: &out) { fields in
                store(stamp.device, at: 0, in: fields)
                store(stamp.inode, at: 8, in: fields)
                store(stamp.size, at: 16, in: fields)
                store(stamp.modified.seconds, at: 24, in: fields)
                store(stamp.modified.nanoseconds, at: 32, in: fields)
                store(stamp.changed.seconds, at: 40, in: fields)
                store(stamp.changed.nanoseconds, at: 48, in: fields)
                fields[56] = (plugin.isAnnotated ? 1 : 0) | (plugin.buildID == nil ? 0 : 2)
                fields[57] = UInt8(min(buildID.utf8.count, Int(UInt8.max)))
            }
            appendUTF8(buildID, limit: Int(UInt8.max), to: &out)
            // Sections in the order their first records come, so that the records decode in the order they were
            // read. Each record's section number is noted once (scratch arrays reused across plugins), and its
            // bytes are copied straight from where it was read, without making its text or origin strings. The
            // records are read in place: iterating the array copied each one, a retain and a release.
            sectionOrder.removeAll(keepingCapacity: true)
            numbers.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            plugin.records.withUnsafeBufferPointer { records in
                for index in records.indices {
                    let (section, offset) = records[index].placement
                    let number = SectionName.all.firstIndex(of: section) ?? -1
                    numbers.append(number)
                    offsets.append(offset)
                    if number >= 0, !sectionOrder.contains(number) { sectionOrder.append(number) }
                }
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
                plugin.records.withUnsafeBufferPointer { records in
                    for position in members {
                        let place = image + offsets[position]
                        if out.count < place { out.append(contentsOf: repeatElement(0, count: place - out.count)) }
                        // Records overlapping one another cannot come from one section; the layout checks at
                        // decoding then refuse the entry.
                        if out.count > place { out.removeSubrange(place...) }
                        records[position].withTextBytes { out.append(contentsOf: $0) }
                        out.append(0)
                    }
                    withUnsafeBytes(of: UInt32(out.count - image).littleEndian) {
                        out.replaceSubrange(lengthAt..<(lengthAt + 4), with: $0)
                    }
                    let section = SectionName.all[number]
                    for position in members {
                        appendLayout(of: records[position], offset: offsets[position], section: section, to: &out)
                    }
                }
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
    ) throws(Failure) -> ([(name: PluginFileName, entry: Entry)], [String]) {
        guard raw.count >= headerSize,
            memcmp(raw.baseAddress!, magic.utf8Start, magic.utf8CodeUnitCount) == 0
        else {
            let textFormat = raw.starts(with: "beehive-plugin-index ".utf8)
            throw .corrupt(textFormat ? "the text format of an older BeeHive" : "not a plugin index cache (no BHPINDEX header)")
        }
        var reader = Reader(raw, at: magic.utf8CodeUnitCount)
        guard reader.u32() == version else { throw .otherVersion }
        guard reader.u32() == host else { throw .otherVersion }
        guard reader.u64() == checksum(UnsafeRawBufferPointer(rebasing: raw[headerSize...])) else {
            throw .corrupt("checksum mismatch (damaged or cut short)")
        }
        guard let folderEnd = raw[reader.offset...].firstIndex(of: 0) else { throw .corrupt("no folder") }
        let cachedFolder = UnsafeRawBufferPointer(rebasing: raw[reader.offset..<folderEnd])
        guard cachedFolder.elementsEqual(folder.utf8) else { throw .foreign(String(decoding: cachedFolder, as: UTF8.self)) }
        reader.offset = folderEnd + 1
        guard let count = reader.u32(), Int(count) <= raw.count / 60 else { throw .corrupt("bad plugin count") }
        var entries: [(name: PluginFileName, entry: Entry)] = []
        entries.reserveCapacity(Int(count))
        var outside: [String] = []
        for number in 0..<Int(count) {
            guard let entry = reader.entry() else { throw .corrupt("bad plugin entry \(number + 1)") }
            let name = String(decoding: entry.name, as: UTF8.self)
            guard isPlainFileName(entry.name) else {
                outside.append(name)
                continue
            }
            let ordered = PluginFileName(name, bytes: entry.name)
            if let last = entries.last?.name, !(last < ordered) { throw .corrupt("plugin \(name) out of order or listed twice") }
            entries.append((ordered, entry.entry))
        }
        guard reader.offset == raw.count else { throw .corrupt("bytes after the last plugin") }
        return (entries, outside)
    }

    /// The cached records of a plugin, each with the layout stored for it; nil if any layout is refused (see
    /// `layout(_:at:in:kinds:after:)`).
    static func records(of entry: Entry, in image: PluginIndexCacheImage, path: String) -> [AnnotationRecord]? {
        var reader = Reader(UnsafeRawBufferPointer(rebasing: image.bytes[..<entry.sections.upperBound]), at: entry.sections.lowerBound)
        var records: [AnnotationRecord] = []
        records.reserveCapacity(entry.recordCount)
        // One for all the plugin's sections, pointing into the image: each record lies in its kind's section, and
        // its layout's `start` places it among the entry's bytes.
        let shared = SectionBytes(
            UnsafeRawBufferPointer(rebasing: image.bytes[entry.sections]), in: image, section: "", objectPath: path)
        for _ in 0..<entry.sectionCount {
            guard let number = reader.u8(), let count = reader.u32(), let length = reader.u32() else { return nil }
            let imageStart = reader.offset - entry.sections.lowerBound
            guard let bytes = reader.bytes(length), let layouts = reader.bytes(count, times: layoutSize) else { return nil }
            let kinds = kindsBySection[Int(number)]
            var next = 0
            for position in stride(from: 0, to: layouts.count, by: layoutSize) {
                guard var layout = layout(layouts, at: position, in: bytes, kinds: kinds, after: next) else { return nil }
                next = layout.offset + Int(layout.length) + 1
                layout.start = imageStart + layout.offset
                records.append(AnnotationRecord(bytes: shared, layout: layout))
            }
        }
        return records
    }

    /// The kinds each section of `SectionName.all` holds, one bit each (`AnnotationKind.order`).
    private static let kindsBySection: [UInt8] = SectionName.all.map { name in
        AnnotationKind.allCases.reduce(UInt8(0)) { kinds, kind in kind.section == name ? kinds | 1 << kind.order : kinds }
    }

    /// The layout stored at `position` in `layouts` for a record of `image`, if it lies inside the image from
    /// `after` on, ends at a NUL, has its fields inside it and a name, and declares a kind of `kinds`.
    private static func layout(
        _ layouts: UnsafeRawBufferPointer, at position: Int, in image: UnsafeRawBufferPointer, kinds: UInt8, after: Int
    ) -> RecordLayout? {
        func u16(_ field: Int) -> Int { Int(UInt16(littleEndian: layouts.loadUnaligned(fromByteOffset: position + field, as: UInt16.self))) }
        let offset = Int(UInt32(littleEndian: layouts.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        let length = u16(4)
        guard offset >= after, length > 0, length <= RecordParser.maximumRecordLength, length < image.count - offset,
            image[offset + length] == 0,
            let kind = kind(order: layouts[position + 26]), kinds & 1 << kind.order != 0,
            layouts[position + 27] < 2, let scope = scope(order: layouts[position + 28]), layouts[position + 29] & ~3 == 0
        else { return nil }
        func span(_ field: Int) -> RecordLayout.Span? {
            let start = u16(field)
            let end = u16(field + 2)
            return start <= end && end <= length ? RecordLayout.Span(start: UInt16(start), end: UInt16(end)) : nil
        }
        guard let name = span(6), !name.isEmpty, let type = span(10), let qualifier = span(14) else { return nil }
        var layout = RecordLayout(offset: offset, start: offset, length: UInt16(length), kind: kind, name: name)
        layout.type = type
        layout.qualifier = qualifier
        layout.priority = Int(Int64(littleEndian: layouts.loadUnaligned(fromByteOffset: position + 18, as: Int64.self)))
        layout.level = layouts[position + 27] == 0 ? .basic : .normal
        layout.scope = scope
        layout.isAsync = layouts[position + 29] & 1 != 0
        layout.isOnDemand = layouts[position + 29] & 2 != 0
        return layout
    }

    /// Writes the layout of `record`, which lies at `offset` of `section`'s image; one that decoding refuses
    /// (kind 255) when the record has none.
    private static func appendLayout(of record: AnnotationRecord, offset: Int, section: String, to out: inout [UInt8]) {
        let layout = record.cachedLayout ?? record.withTextBytes { text in
            (try? RecordParser.layout(of: text, at: offset)).flatMap { $0.kind.section == section ? $0 : nil }
        }
        appendFields(layoutSize, to: &out) { fields in
            store(UInt32(truncatingIfNeeded: offset), at: 0, in: fields)
            guard let layout else {
                for index in 4..<layoutSize { fields[index] = 0 }
                fields[26] = 255
                return
            }
            store(layout.length, at: 4, in: fields)
            store(layout.name.start, at: 6, in: fields)
            store(layout.name.end, at: 8, in: fields)
            store(layout.type.start, at: 10, in: fields)
            store(layout.type.end, at: 12, in: fields)
            store(layout.qualifier.start, at: 14, in: fields)
            store(layout.qualifier.end, at: 16, in: fields)
            store(Int64(layout.priority), at: 18, in: fields)
            fields[26] = UInt8(layout.kind.order)
            fields[27] = layout.level == .basic ? 0 : 1
            fields[28] = order(of: layout.scope)
            fields[29] = (layout.isAsync ? 1 : 0) | (layout.isOnDemand ? 2 : 0)
        }
    }

    /// Appends `count` bytes that `write` fills: one append for a group of fields instead of one each, which
    /// was most of writing a layout.
    private static func appendFields(_ count: Int, to out: inout [UInt8], _ write: (UnsafeMutableRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { fields in
            write(fields)
            out.append(contentsOf: UnsafeRawBufferPointer(fields))
        }
    }

    private static func store<Value: FixedWidthInteger>(_ value: Value, at offset: Int, in fields: UnsafeMutableRawBufferPointer) {
        fields.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Value.self)
    }

    private static func kind(order: UInt8) -> AnnotationKind? {
        switch order {
        case 0: .module
        case 1: .service
        case 2: .route
        case 3: .target
        default: nil
        }
    }

    /// `ServiceScope.allCases[order]`, without making that array.
    private static func scope(order: UInt8) -> ServiceScope? {
        switch order {
        case 0: .transient
        case 1: .singleton
        case 2: .named
        case 3: .weak
        default: nil
        }
    }

    private static func order(of scope: ServiceScope) -> UInt8 {
        switch scope {
        case .transient: 0
        case .singleton: 1
        case .named: 2
        case .weak: 3
        }
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

    /// 64 bits at a time in four lanes, each 32-byte block giving one word to each: each step multiplies by an
    /// odd constant and folds the high bits down, both invertible, so the lane of a changed word differs and
    /// stays different, and the lanes are folded into one another the same way. Four lanes, because one
    /// waited on each multiplication: the checksum was most of reading the cache.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let product = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
            return product ^ product >> 29
        }
        func word(_ index: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) }
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count), 1, 2, 3)
        var index = 0
        while index + 32 <= bytes.count {
            lanes = (mix(lanes.0, word(index)), mix(lanes.1, word(index + 8)), mix(lanes.2, word(index + 16)), mix(lanes.3, word(index + 24)))
            index += 32
        }
        var hash = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while index + 8 <= bytes.count {
            hash = mix(hash, word(index))
            index += 8
        }
        var tail: UInt64 = 0
        for byte in bytes[index...].reversed() { tail = tail << 8 | UInt64(byte) }
        return mix(hash, tail)
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

        mutating func bytes(_ count: UInt32?, times size: Int = 1) -> UnsafeRawBufferPointer? {
            guard let count, Int(count) * size <= raw.count - offset else { return nil }
            defer { offset += Int(count) * size }
            return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + Int(count) * size)])
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

        /// One plugin entry; its sections are checked for length and section number, their layouts later.
        mutating func entry() -> (name: UnsafeRawBufferPointer, entry: Entry)? {
            guard let nameLength = integer(UInt16.self), let name = bytes(UInt32(nameLength)),
                let device = u64(), let inode = u64(), let size = i64(), let modified = i64(),
                let modifiedNanoseconds = i64(), let changed = i64(), let changedNanoseconds = i64(),
                let flags = u8(), flags & ~3 == 0, let buildIDLength = u8(), let buildID = bytes(UInt32(buildIDLength)),
                flags & 2 != 0 || buildIDLength == 0,
                let sectionCount = u8(), Int(sectionCount) <= SectionName.all.count
            else { return nil }
            let sectionsStart = offset
            var recordCount = 0
            for _ in 0..<sectionCount {
                guard let number = u8(), Int(number) < SectionName.all.count, let count = u32(), let length = u32(),
                    bytes(length) != nil, bytes(count, times: layoutSize) != nil
                else { return nil }
                recordCount += Int(count)
            }
            let stamp = PluginFileStamp(
                device: device, inode: inode, size: size, modified: .init(seconds: modified, nanoseconds: modifiedNanoseconds),
                changed: .init(seconds: changed, nanoseconds: changedNanoseconds))
            return (
                name,
                Entry(
                    stamp: stamp, buildID: flags & 2 == 0 ? nil : String(decoding: buildID, as: UTF8.self),
                    isAnnotated: flags & 1 != 0, sections: sectionsStart..<offset, sectionCount: Int(sectionCount),
                    recordCount: recordCount)
            )
        }
    }
}
