/// Percent-decoding of URL components without Foundation, so that routing allocates only for values that
/// actually contain escapes.
enum PercentDecoding {
    /// The text with `%XX` escapes decoded and, when `plusAsSpace` is set, `+` turned into a space.
    ///
    /// As in JLRoutes, `+` is replaced after percent-decoding, so `%2B` also becomes a space when `plusAsSpace`
    /// is set. A malformed escape (`%zz`, a trailing `%`) is kept as written, and so is text whose escapes do
    /// not decode to UTF-8.
    static func decode(_ source: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        guard source.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: source, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.count, let high = hexValue(source[index + 1]),
                let low = hexValue(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        if plusAsSpace {
            for index in bytes.indices where bytes[index] == UInt8(ascii: "+") { bytes[index] = UInt8(ascii: " ") }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(decoding: source, as: UTF8.self)
    }

    /// The decoded text of a pattern's literal component.
    static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        // Most literals hold nothing to decode: the text is made once, not copied and then read again.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var text = String(text)
        return text.withUTF8 { decode($0, plusAsSpace: plusAsSpace) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
