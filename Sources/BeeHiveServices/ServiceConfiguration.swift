@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation

/// Reads service configuration files: BeeHive's service plist, and the same layout in JSON.
///
/// Each entry is a dictionary of strings: `service`, `impl`, and optionally `scope` and `name`. A value of
/// another type, an unknown key, or `scope` `named` without a `name` is refused with the entry's index, as the
/// record parser refuses the same mistakes in annotations. Decoded with `JSONDecoder`/`PropertyListDecoder`,
/// which keep a compact index of the file, so memory stays a small multiple of its size.
enum ServiceConfiguration {
    struct Entry: Equatable {
        let service: String
        let implementation: String
        let scope: ServiceScope
        let name: String?
    }

    fileprivate static let allowedKeys: Set<String> = ["service", "impl", "scope", "name"]

    static func entries(
        in data: Data, format: ServiceConfigurationFormat, source: String
    ) throws(ServiceError) -> [Entry] {
        guard data.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw invalid(source, data.isEmpty ? "the file is empty" : "the file holds only whitespace")
        }
        let list: EntryList
        do {
            switch format {
            case .plist: list = try PropertyListDecoder().decode(EntryList.self, from: data)
            case .json: list = try JSONDecoder().decode(EntryList.self, from: data)
            }
        } catch let problem as EntryProblem {
            throw invalid(source, problem.reason)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                let underlying = context.underlyingError.map { ": \($0)" } ?? ""
                throw invalid(source, "not a valid \(format.rawValue) file (\(context.debugDescription)\(underlying))")
            }
            throw invalid(source, "\(error)")
        } catch {
            throw invalid(source, "not a valid \(format.rawValue) file: \(error)")
        }
        return list.entries
    }

    private static func invalid(_ source: String, _ reason: String) -> ServiceError {
        ServiceError(.invalidConfiguration(source: source, reason: reason))
    }
}

/// A problem with one entry, in words.
private struct EntryProblem: Error {
    let reason: String
}

private struct EntryList: Decodable {
    let entries: [ServiceConfiguration.Entry]

    init(from decoder: any Decoder) throws {
        var list: UnkeyedDecodingContainer
        do {
            list = try decoder.unkeyedContainer()
        } catch {
            throw EntryProblem(reason: "the top level must be an array of entries with 'service' and 'impl'")
        }
        var entries: [ServiceConfiguration.Entry] = []
        if let count = list.count { entries.reserveCapacity(count) }
        while !list.isAtEnd {
            entries.append(try list.decode(EntryDecoder.self).entry)
        }
        self.entries = entries
    }
}

private struct EntryDecoder: Decodable {
    let entry: ServiceConfiguration.Entry

    init(from decoder: any Decoder) throws {
        let index = decoder.codingPath.last?.intValue ?? 0
        func invalid(_ reason: String) -> EntryProblem { EntryProblem(reason: "entry \(index) \(reason)") }
        let container: KeyedDecodingContainer<ConfigurationKey>
        do {
            container = try decoder.configurationEntry(allowedKeys: ServiceConfiguration.allowedKeys, notADictionary: "is not a dictionary")
        } catch {
            throw invalid(error.reason)
        }
        func string(_ key: String) throws -> String? {
            let codingKey = ConfigurationKey(stringValue: key)
            guard container.contains(codingKey) else { return nil }
            guard let text = try? container.decode(String.self, forKey: codingKey),
                !text.trimmingCharacters(in: .whitespaces).isEmpty
            else {
                throw EntryProblem(reason: "entry \(index): '\(key)' must be a non-empty string")
            }
            if let problem = controlCharacterProblem(in: text) {
                throw EntryProblem(reason: "entry \(index): '\(key)' \(problem)")
            }
            return text.trimmingCharacters(in: .whitespaces)
        }
        guard let service = try string("service") else { throw invalid("has no 'service'") }
        guard let implementation = try string("impl") else { throw invalid("has no 'impl'") }
        var scope = ServiceScope.transient
        if let text = try string("scope") {
            guard let parsed = ServiceScope(rawValue: text) else {
                throw EntryProblem(
                    reason: "entry \(index): unknown scope '\(text)' (\(ServiceScope.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            scope = parsed
        }
        let name = try string("name")
        if scope == .named, name == nil {
            // Without a name the registration would answer every name; records refuse this too.
            throw invalid("has scope 'named' but no 'name': add the name it answers to")
        }
        entry = ServiceConfiguration.Entry(
            service: ServiceTypeName.normalized(service), implementation: implementation, scope: scope, name: name)
    }
}
