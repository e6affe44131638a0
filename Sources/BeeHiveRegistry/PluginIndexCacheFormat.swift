#if canImport(Glibc)
import Glibc
#endif

/// The cache file's text format, one line per plugin and per record:
///
/// ```
/// beehive-plugin-index 1
/// folder /opt/app/plugins
/// plugin libcart.so 16384 1700000000 12 1700000000 12 393222 2049 3fa1...c2 1 2
/// record beehive_services 0 beehive:1|service|Shop.Cart|Shop.CartImpl
/// record beehive_routes 0 beehive:1|route|/cart|Shop.CartHandler
/// end 1
/// ```
///
/// A plugin line holds the file name, size, modification and change times (seconds and nanoseconds), inode,
/// device, build-id (`-` for none), whether it is annotated, and how many record lines follow. Names and
/// records escape `%`, spaces and control bytes as `%XX`. The last line counts the plugins, so a file cut
/// short is caught.
enum PluginIndexCacheFormat {
    static let header = "beehive-plugin-index 1"

    enum Failure: Error {
        case corrupt(String)
        case foreign(String)
    }

    static func encode(_ plugins: [IndexedPlugin], folder: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + plugins.reduce(0) { $0 + 128 + $1.records.count * 96 })
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        append(header + "\nfolder ")
        escape(folder.utf8, into: &out)
        for plugin in plugins {
            append("\nplugin ")
            escape(plugin.fileName.utf8, into: &out)
            let stamp = plugin.stamp
            append(
                " \(stamp.size) \(stamp.modified.seconds) \(stamp.modified.nanoseconds) \(stamp.changed.seconds) "
                    + "\(stamp.changed.nanoseconds) \(Int64(bitPattern: stamp.inode)) \(Int64(bitPattern: stamp.device)) \(plugin.buildID ?? "-") "
                    + "\(plugin.isAnnotated ? 1 : 0) \(plugin.records.count)")
            for record in plugin.records {
                let origin = record.origin
                append("\nrecord \(origin.section) \(origin.offset) ")
                escape(record.text.utf8, into: &out)
            }
        }
        append("\nend \(plugins.count)\n")
        return out
    }

    /// The entries of a cache of `folder`; entries whose name is not a plain file name of the folder are
    /// returned apart, by name.
    static func decode(_ bytes: [UInt8], folder: String) throws(Failure) -> (entries: [String: CachedPlugin], outside: [String]) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        guard lines.last?.isEmpty == true else { throw .corrupt("the last line is not complete") }
        lines.removeLast()
        guard let first = lines.popFirst(), first.elementsEqual(header.utf8) else { throw .corrupt("no '\(header)' header") }
        guard let folderLine = lines.popFirst(), folderLine.starts(with: "folder ".utf8) else { throw .corrupt("no folder line") }
        let cachedFolder = try unescape(folderLine.dropFirst(7))
        guard cachedFolder.elementsEqual(folder.utf8) else { throw .foreign(String(decoding: cachedFolder, as: UTF8.self)) }
        var entries: [String: CachedPlugin] = [:]
        var outside: [String] = []
        var count = 0
        while let line = lines.popFirst() {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            if let first = fields.first, equals(first, "end") {
                guard fields.count == 2, integer(fields[1]) == Int64(count), lines.isEmpty else { throw .corrupt("bad end line") }
                return (entries, outside)
            }
            guard fields.count == 12, equals(fields[0], "plugin"), let size = integer(fields[2]),
                let modified = integer(fields[3]), let modifiedNanoseconds = integer(fields[4]), let changed = integer(fields[5]),
                let changedNanoseconds = integer(fields[6]), let inode = integer(fields[7]), let device = integer(fields[8]),
                let recordCount = integer(fields[11]), recordCount >= 0,
                recordCount <= lines.count, fields[10].count == 1, let annotated = fields[10].first,
                annotated == UInt8(ascii: "0") || annotated == UInt8(ascii: "1")
            else { throw .corrupt("bad plugin line \(count + 1)") }
            let stamp = PluginFileStamp(
                size: size, modified: .init(seconds: modified, nanoseconds: modifiedNanoseconds),
                changed: .init(seconds: changed, nanoseconds: changedNanoseconds), inode: UInt64(bitPattern: inode),
                device: UInt64(bitPattern: device))
            let buildID = equals(fields[9], "-") ? nil : String(decoding: fields[9], as: UTF8.self)
            var records: [(section: String, offset: Int, text: [UInt8])] = []
            records.reserveCapacity(Int(recordCount))
            for _ in 0..<recordCount {
                let recordFields = lines.popFirst()!.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: false)
                guard recordFields.count == 4, equals(recordFields[0], "record"), let section = section(named: recordFields[1]),
                    let offset = integer(recordFields[2]), offset >= 0
                else { throw .corrupt("bad record line in plugin \(count + 1)") }
                records.append((section, Int(offset), try unescape(recordFields[3])))
            }
            count += 1
            let nameBytes = try unescape(fields[1])
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard isPlainFileName(nameBytes) else {
                outside.append(name)
                continue
            }
            entries[name] = CachedPlugin(stamp: stamp, buildID: buildID, isAnnotated: annotated == UInt8(ascii: "1"), records: records)
        }
        throw .corrupt("no end line (cut short?)")
    }

    /// Whether `bytes` spell `literal`; byte by byte, without the generic `elementsEqual`, which showed in
    /// profiles of a warm start.
    private static func equals(_ bytes: ArraySlice<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.isEmpty || memcmp(buffer.baseAddress!, literal.utf8Start, buffer.count) == 0
        }
    }

    /// The record section `bytes` names.
    private static func section(named bytes: ArraySlice<UInt8>) -> String? {
        SectionName.all.first { name in
            var name = name
            return name.withUTF8 { utf8 in
                bytes.count == utf8.count && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, utf8.baseAddress!, utf8.count) == 0 }
            }
        }
    }

    /// A name that stays inside the folder: not empty, no `/`, not `.` or `..`, valid UTF-8, no NUL.
    static func isPlainFileName(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0) && bytes != [0x2E] && bytes != [0x2E, 0x2E]
            && String(validating: bytes, as: UTF8.self) != nil
    }

    private static func escape(_ bytes: some Sequence<UInt8>, into out: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
    }

    private static func unescape(_ bytes: ArraySlice<UInt8>) throws(Failure) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return Array(bytes) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw .corrupt("bad escape") }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 20 else { return nil }
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return negative ? -value : value
    }
}
