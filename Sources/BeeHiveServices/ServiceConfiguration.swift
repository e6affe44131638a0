import BeeHiveRegistry
import Foundation

/// Reads service configuration files: BeeHive's service plist, and the same layout in JSON.
enum ServiceConfiguration {
    struct Entry: Equatable {
        let service: String
        let implementation: String
        let scope: ServiceScope
        let name: String?
    }

    private static let allowedKeys: Set<String> = ["service", "impl", "scope", "name"]

    static func entries(
        in data: Data, format: ServiceConfigurationFormat, source: String
    ) throws(ServiceError) -> [Entry] {
        let root: Any
        do {
            switch format {
            case .plist: root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            case .json: root = try JSONSerialization.jsonObject(with: data)
            }
        } catch {
            throw invalid(source, "not a valid \(format.rawValue) file: \(error.localizedDescription)")
        }
        guard let list = root as? [Any] else {
            throw invalid(source, "the top level must be an array of entries with 'service' and 'impl'")
        }
        var entries: [Entry] = []
        for (index, element) in list.enumerated() {
            entries.append(try entry(element, index: index, source: source))
        }
        return entries
    }

    private static func entry(_ element: Any, index: Int, source: String) throws(ServiceError) -> Entry {
        guard let dictionary = element as? [String: Any] else {
            throw invalid(source, "entry \(index) is not a dictionary")
        }
        if let unknown = dictionary.keys.sorted().first(where: { !allowedKeys.contains($0) }) {
            throw invalid(
                source, "entry \(index) has unknown key '\(unknown)' (allowed: \(allowedKeys.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String) throws(ServiceError) -> String? {
            guard let value = dictionary[key] else { return nil }
            guard let text = value as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw invalid(source, "entry \(index): '\(key)' must be a non-empty string")
            }
            return text.trimmingCharacters(in: .whitespaces)
        }
        guard let service = try string("service") else { throw invalid(source, "entry \(index) has no 'service'") }
        guard let implementation = try string("impl") else { throw invalid(source, "entry \(index) has no 'impl'") }
        var scope = ServiceScope.transient
        if let text = try string("scope") {
            guard let parsed = ServiceScope(rawValue: text) else {
                throw invalid(
                    source,
                    "entry \(index): unknown scope '\(text)' (\(ServiceScope.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            scope = parsed
        }
        return Entry(
            service: ServiceTypeName.normalized(service), implementation: implementation, scope: scope,
            name: try string("name"))
    }

    private static func invalid(_ source: String, _ reason: String) -> ServiceError {
        ServiceError(.invalidConfiguration(source: source, reason: reason))
    }
}
