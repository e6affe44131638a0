import BeeHiveRegistry
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
/// as a property list (XML or binary, read with PropertyListSerialization) or as JSON with the same keys.
/// `moduleLevel` also takes "basic"/"normal"; numbers may be strings, as BeeHive allowed.
enum ModuleConfigurationFile {
    struct Entry {
        let index: Int
        let typeName: String
        let level: ModuleLevel
        let priority: Int
        let isAsync: Bool
    }

    static let allowedKeys: Set<String> = ["moduleClass", "moduleLevel", "modulePriority", "moduleAsync"]

    static func entries(in data: Data, path: String) throws(ModuleError) -> [Entry] {
        func invalid(_ reason: String) -> ModuleError { .invalidConfigurationFile(path: path, reason: reason) }

        let root: Any
        do {
            if isJSON(data) {
                root = try JSONSerialization.jsonObject(with: data)
            } else {
                root = try PropertyListSerialization.propertyList(from: data, format: nil)
            }
        } catch {
            throw invalid("is neither valid JSON nor a valid property list: \(error.localizedDescription)")
        }
        guard let dictionary = root as? [String: Any] else {
            throw invalid("the top level must be a dictionary with a 'moduleClasses' array")
        }
        guard let list = dictionary["moduleClasses"] else {
            throw invalid("no 'moduleClasses' key at the top level")
        }
        guard let modules = list as? [Any] else { throw invalid("'moduleClasses' must be an array of dictionaries") }

        var entries: [Entry] = []
        for (index, item) in modules.enumerated() {
            let place = "moduleClasses[\(index)]"
            guard let module = item as? [String: Any] else { throw invalid("\(place) must be a dictionary") }
            if let unknown = module.keys.sorted().first(where: { !allowedKeys.contains($0) }) {
                throw invalid("\(place) has unknown key '\(unknown)' (allowed: \(allowedKeys.sorted().joined(separator: ", ")))")
            }
            guard let typeName = module["moduleClass"] as? String, !typeName.isEmpty else {
                throw invalid("\(place) needs a 'moduleClass' string naming the module type, such as 'Shop.ShopModule'")
            }
            var level = ModuleLevel.normal
            if let value = module["moduleLevel"] {
                switch text(value)?.lowercased() {
                case "1", "normal": level = .normal
                case "0", "basic": level = .basic
                default: throw invalid("\(place) has moduleLevel '\(text(value) ?? "?")'; use 0 (basic) or 1 (normal)")
                }
            }
            var priority = 0
            if let value = module["modulePriority"] {
                guard let parsed = text(value).flatMap({ Int($0) }) else {
                    throw invalid("\(place) has modulePriority '\(text(value) ?? "?")'; use an integer")
                }
                priority = parsed
            }
            var isAsync = false
            if let value = module["moduleAsync"] {
                switch text(value)?.lowercased() {
                case "1", "true", "yes": isAsync = true
                case "0", "false", "no": isAsync = false
                default: throw invalid("\(place) has moduleAsync '\(text(value) ?? "?")'; use true or false")
                }
            }
            entries.append(Entry(index: index, typeName: typeName, level: level, priority: priority, isAsync: isAsync))
        }
        return entries
    }

    /// A scalar as text: strings as they are, numbers and booleans as digits.
    private static func text(_ value: Any) -> String? {
        if let string = value as? String { return string.trimmingCharacters(in: .whitespaces) }
        if let bool = value as? Bool, !(value is NSNumber) { return bool ? "1" : "0" }
        if let number = value as? NSNumber { return number.stringValue }
        if let integer = value as? Int { return String(integer) }
        return nil
    }

    private static func isJSON(_ data: Data) -> Bool {
        guard let first = data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}
