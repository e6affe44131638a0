@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation

/// Reads BeeHive's module list: a dictionary whose `moduleClasses` array holds one dictionary per module,
///
///     <key>moduleClasses</key>
///     <array>
///       <dict>
///         <key>moduleClass</key><string>Shop.ShopModule</string>
///         <key>moduleLevel</key><integer>0</integer>        <!-- 0 basic, 1 normal (default) -->
///         <key>modulePriority</key><string>600</string>     <!-- higher first, default 0 -->
///         <key>moduleAsync</key><true/>                     <!-- optional, default false -->
///       </dict>
///     </array>
///
/// as a property list (XML or binary) or as JSON with the same keys. `moduleLevel` also takes
/// "basic"/"normal"; numbers may be strings, as BeeHive allowed; a boolean is not a level or a priority.
/// An unknown key in an entry is refused (a misspelt key would otherwise be lost); an unknown key at the top
/// level is reported as a warning, since other tools keep their own keys in the same file.
///
/// Decoded with `JSONDecoder`/`PropertyListDecoder`, which keep a compact index of the file rather than a tree
/// of objects, so memory stays a small multiple of the file's size.
enum ModuleConfigurationFile {
    struct Entry {
        let index: Int
        let typeName: String
        let level: ModuleLevel
        let priority: Int
        let isAsync: Bool
    }

    struct Contents {
        let entries: [Entry]
        /// Unknown top-level keys, sorted.
        let unknownKeys: [String]
    }

    static let allowedKeys: Set<String> = ["moduleClass", "moduleLevel", "modulePriority", "moduleAsync"]

    static func contents(of data: Data, path: String) throws(ModuleError) -> Contents {
        func invalid(_ reason: String) -> ModuleError { .invalidConfigurationFile(path: path, reason: reason) }

        guard let first = data.first(where: { !isWhitespace($0) }) else {
            throw invalid(data.isEmpty ? "the file is empty" : "the file holds only whitespace")
        }
        let root: Root
        do {
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                root = try JSONDecoder().decode(Root.self, from: data)
            } else {
                root = try PropertyListDecoder().decode(Root.self, from: data)
            }
        } catch let error as ConfigurationProblem {
            throw invalid(error.reason)
        } catch let error as DecodingError {
            throw invalid(Self.reason(for: error))
        } catch {
            throw invalid("is neither valid JSON nor a valid property list: \(error)")
        }
        return Contents(
            entries: root.modules.enumerated().map { index, module in
                Entry(
                    index: index, typeName: module.typeName, level: module.level, priority: module.priority,
                    isAsync: module.isAsync)
            },
            unknownKeys: root.unknownKeys)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func reason(for error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let underlying = context.underlyingError.map { ": \($0)" } ?? ""
            return "is neither valid JSON nor a valid property list (\(context.debugDescription)\(underlying))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `moduleClasses[3].moduleLevel` for a coding path.
    fileprivate static func place(_ path: [any CodingKey]) -> String {
        path.reduce("") { text, key in
            if let index = key.intValue { return text + "[\(index)]" }
            return text.isEmpty ? key.stringValue : text + "." + key.stringValue
        }
    }
}

/// A problem with a value that decoded, in words; becomes `invalidConfigurationFile`.
private struct ConfigurationProblem: Error {
    let reason: String
}

/// A scalar of the file, keeping its type: a boolean is not taken for a number.
private enum Scalar {
    case boolean(Bool)
    case integer(Int)
    case string(String)

    enum Kind { case boolean, integer, string }

    /// The value at `key`, trying `expected` first: a failed attempt costs a decoding error, so the usual type
    /// is tried before the others.
    static func decode(_ key: ConfigurationKey, in container: KeyedDecodingContainer<ConfigurationKey>, expected: Kind) throws -> Scalar? {
        guard container.contains(key) else { return nil }
        let order: [Kind] =
            switch expected {
            case .boolean: [.boolean, .integer, .string]
            case .integer: [.integer, .string, .boolean]
            case .string: [.string, .integer, .boolean]
            }
        for kind in order {
            switch kind {
            case .boolean: if let value = try? container.decode(Bool.self, forKey: key) { return .boolean(value) }
            case .integer: if let value = try? container.decode(Int.self, forKey: key) { return .integer(value) }
            case .string:
                if let value = try? container.decode(String.self, forKey: key) {
                    return .string(value.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        throw ConfigurationProblem(
            reason: "\(ModuleConfigurationFile.place(container.codingPath + [key])) must be a string, an integer or a boolean")
    }

    var text: String {
        switch self {
        case .boolean(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }
}

private struct Root: Decodable {
    let modules: [ModuleItem]
    let unknownKeys: [String]

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<ConfigurationKey>
        do {
            container = try decoder.container(keyedBy: ConfigurationKey.self)
        } catch {
            throw ConfigurationProblem(reason: "the top level must be a dictionary with a 'moduleClasses' array")
        }
        let key = ConfigurationKey(stringValue: "moduleClasses")
        guard container.contains(key) else { throw ConfigurationProblem(reason: "no 'moduleClasses' key at the top level") }
        var list: UnkeyedDecodingContainer
        do {
            list = try container.nestedUnkeyedContainer(forKey: key)
        } catch {
            throw ConfigurationProblem(reason: "'moduleClasses' must be an array of dictionaries")
        }
        var modules: [ModuleItem] = []
        if let count = list.count { modules.reserveCapacity(count) }
        while !list.isAtEnd {
            modules.append(try list.decode(ModuleItem.self))
        }
        self.modules = modules
        unknownKeys = container.allKeys.map(\.stringValue).filter { $0 != key.stringValue }.sorted()
    }
}

private struct ModuleItem: Decodable {
    let typeName: String
    let level: ModuleLevel
    let priority: Int
    let isAsync: Bool

    init(from decoder: any Decoder) throws {
        let place = ModuleConfigurationFile.place(decoder.codingPath)
        func invalid(_ reason: String) -> ConfigurationProblem { ConfigurationProblem(reason: "\(place) \(reason)") }
        let container: KeyedDecodingContainer<ConfigurationKey>
        do {
            container = try decoder.configurationEntry(allowedKeys: ModuleConfigurationFile.allowedKeys, notADictionary: "must be a dictionary")
        } catch {
            throw invalid(error.reason)
        }
        func scalar(_ name: String, _ expected: Scalar.Kind) throws -> Scalar? {
            try Scalar.decode(ConfigurationKey(stringValue: name), in: container, expected: expected)
        }
        guard case .string(let typeName) = try scalar("moduleClass", .string), !typeName.isEmpty else {
            throw invalid("needs a 'moduleClass' string naming the module type, such as 'Shop.ShopModule'")
        }
        if let problem = controlCharacterProblem(in: typeName) { throw invalid("has a 'moduleClass' that \(problem)") }
        self.typeName = typeName
        switch try scalar("moduleLevel", .integer) {
        case nil: level = .normal
        case .integer(1), .string("1"): level = .normal
        case .integer(0), .string("0"): level = .basic
        case .string(let text) where text.lowercased() == "normal": level = .normal
        case .string(let text) where text.lowercased() == "basic": level = .basic
        case .some(let value):
            throw invalid("has moduleLevel '\(value.text)'; use 0 (basic) or 1 (normal)")
        }
        switch try scalar("modulePriority", .integer) {
        case nil: priority = 0
        case .integer(let value): priority = value
        case .string(let text) where Int(text) != nil: priority = Int(text)!
        case .some(let value): throw invalid("has modulePriority '\(value.text)'; use an integer")
        }
        switch try scalar("moduleAsync", .boolean) {
        case nil: isAsync = false
        case .boolean(let value): isAsync = value
        case .integer(let value) where value == 0 || value == 1: isAsync = value == 1
        case .string(let text) where ["1", "true", "yes"].contains(text.lowercased()): isAsync = true
        case .string(let text) where ["0", "false", "no"].contains(text.lowercased()): isAsync = false
        case .some(let value): throw invalid("has moduleAsync '\(value.text)'; use true or false")
        }
    }
}
