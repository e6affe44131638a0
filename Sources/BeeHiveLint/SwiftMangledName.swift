/// Reads the part of the Swift mangling that names nominal types and protocols (docs/ABI/Mangling.rst in the
/// Swift repository): module and type identifiers, word substitutions inside identifiers, repeated-node
/// substitutions (`AA`, `A0_`), the `C` `V` `O` kinds and `XY` (any nominal type).
///
/// Symbols it does not fully understand (generic arguments, extensions in other modules, private or local
/// contexts) give nil: a linter that skips them only loses types that no annotation can name anyway.
public enum SwiftMangledName {
    /// The type whose nominal type descriptor (`$s…Mn`) or protocol descriptor (`$s…Mp`) a symbol names.
    public static func descriptorType(ofSymbol symbol: some StringProtocol) -> SwiftTypePath? {
        guard symbol.hasPrefix("$s"), symbol.count > 4 else { return nil }
        let body = symbol.dropFirst(2).dropLast(2)
        if symbol.hasSuffix("Mn") { return type(body) }
        // A protocol descriptor's body is the protocol's context and name without the `P` of a protocol type.
        if symbol.hasSuffix("Mp") { return type(body + "P") }
        return nil
    }

    /// The type named by a mangled name without its `$s` prefix, such as `4Shop5OuterC5InnerV`.
    public static func type(_ mangled: some StringProtocol) -> SwiftTypePath? {
        var parser = Parser(Array(mangled.utf8))
        return parser.parseType()
    }

    private enum Node {
        case identifier(String)
        case module(String)
        case type(SwiftTypePath)
    }

    private struct Parser {
        let text: [UInt8]
        var position = 0
        var stack: [Node] = []
        var substitutions: [Node] = []
        var words: [String] = []

        init(_ text: [UInt8]) { self.text = text }

        mutating func parseType() -> SwiftTypePath? {
            while position < text.count {
                guard step() else { return nil }
            }
            guard stack.count == 1, case .type(let type) = stack[0] else { return nil }
            return type
        }

        private mutating func step() -> Bool {
            let c = text[position]
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let identifier = identifier() else { return false }
                stack.append(.identifier(identifier))
                substitutions.append(.identifier(identifier))
            case UInt8(ascii: "s"):
                position += 1
                stack.append(.module("Swift"))
            case UInt8(ascii: "S"):
                position += 1
                guard position < text.count else { return false }
                let next = text[position]
                position += 1
                switch next {
                case UInt8(ascii: "o"): stack.append(.module("__C"))
                case UInt8(ascii: "C"): stack.append(.module("__C_Synthesized"))
                default: return false
                }
            case UInt8(ascii: "A"):
                position += 1
                return multiSubstitution()
            case UInt8(ascii: "C"): return nominal(.class)
            case UInt8(ascii: "V"): return nominal(.struct)
            case UInt8(ascii: "O"): return nominal(.enum)
            case UInt8(ascii: "P"): return nominal(.protocol)
            case UInt8(ascii: "X"):
                guard position + 1 < text.count, text[position + 1] == UInt8(ascii: "Y") else { return false }
                position += 1
                return nominal(.anyNominal)
            default:
                return false
            }
            return true
        }

        private mutating func nominal(_ kind: SwiftTypePath.Kind) -> Bool {
            position += 1
            guard case .identifier(let name) = stack.popLast() else { return false }
            let type: SwiftTypePath
            switch stack.popLast() {
            case .identifier(let module), .module(let module):
                type = SwiftTypePath(module: module, components: [.init(name: name, kind: kind)])
            case .type(let parent) where parent.kind != .protocol:
                type = SwiftTypePath(module: parent.module, components: parent.components + [.init(name: name, kind: kind)])
            default:
                return false
            }
            stack.append(.type(type))
            substitutions.append(.type(type))
            return true
        }

        /// `A` then lowercase letters (more substitutions follow), an uppercase letter (the last one), each
        /// optionally preceded by a repeat count; or a number and `_` for an index above 26.
        private mutating func multiSubstitution() -> Bool {
            var repeatCount = -1
            while position < text.count {
                let c = text[position]
                position += 1
                if isLower(c) || isUpper(c) {
                    let index = Int(c - (isLower(c) ? UInt8(ascii: "a") : UInt8(ascii: "A")))
                    let count = max(repeatCount, 1)
                    // Each node on the stack needs at least one more byte (a kind letter) to be folded into the
                    // single type a name must end as; more nodes than bytes left can never parse, so stop here
                    // rather than expand a repeat count of millions from a few bytes of input.
                    guard index < substitutions.count, count <= text.count - position + 1 - stack.count else { return false }
                    stack += repeatElement(substitutions[index], count: count)
                    if isUpper(c) { return true }
                    repeatCount = -1
                } else if c == UInt8(ascii: "_") {
                    let index = repeatCount + 27
                    guard repeatCount >= 0, index < substitutions.count else { return false }
                    stack.append(substitutions[index])
                    return true
                } else {
                    position -= 1
                    guard let number = natural() else { return false }
                    repeatCount = number
                }
            }
            return false
        }

        /// A length-prefixed identifier, or `0` and a mix of word substitutions (a lowercase letter for a word
        /// followed by more, uppercase for the last) and length-prefixed parts. `00` (Punycode) is not read.
        private mutating func identifier() -> String? {
            var hasWordSubstitutions = false
            if text[position] == UInt8(ascii: "0") {
                position += 1
                guard position < text.count, text[position] != UInt8(ascii: "0") else { return nil }
                hasWordSubstitutions = true
            }
            var identifier = ""
            repeat {
                while hasWordSubstitutions, position < text.count, isLower(text[position]) || isUpper(text[position]) {
                    let c = text[position]
                    position += 1
                    let index = Int(c - (isLower(c) ? UInt8(ascii: "a") : UInt8(ascii: "A")))
                    if isUpper(c) { hasWordSubstitutions = false }
                    guard index < words.count else { return nil }
                    identifier += words[index]
                }
                if position < text.count, text[position] == UInt8(ascii: "0") {
                    position += 1
                    break
                }
                guard let count = natural(), count > 0, position + count <= text.count else { return nil }
                let slice = Array(text[position..<position + count])
                position += count
                identifier += String(decoding: slice, as: UTF8.self)
                collectWords(slice)
            } while hasWordSubstitutions
            return identifier.isEmpty ? nil : identifier
        }

        /// Words of at least two characters, each starting at a non-digit, non-underscore character and
        /// ending before an underscore or before an uppercase letter that follows a non-uppercase one.
        private mutating func collectWords(_ slice: [UInt8]) {
            var wordStart: Int?
            for index in 0...slice.count {
                let c: UInt8 = index < slice.count ? slice[index] : 0
                if let start = wordStart, c == UInt8(ascii: "_") || c == 0 || (!isUpper(slice[index - 1]) && isUpper(c)) {
                    if index - start >= 2, words.count < 26 {
                        words.append(String(decoding: slice[start..<index], as: UTF8.self))
                    }
                    wordStart = nil
                }
                if wordStart == nil, !isDigit(c), c != UInt8(ascii: "_"), c != 0 { wordStart = index }
            }
        }

        private mutating func natural() -> Int? {
            var value = 0
            let start = position
            while position < text.count, isDigit(text[position]) {
                value = value * 10 + Int(text[position] - UInt8(ascii: "0"))
                guard value < 1 << 24 else { return nil }
                position += 1
            }
            return position > start ? value : nil
        }

        private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        private func isLower(_ c: UInt8) -> Bool { c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") }
        private func isUpper(_ c: UInt8) -> Bool { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
    }
}
