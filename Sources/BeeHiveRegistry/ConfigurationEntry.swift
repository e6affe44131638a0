/// What the module and service configuration files share about one entry: a dictionary read by key name,
/// whose keys must all be known.

/// A key of a configuration file's entry, by name.
package struct ConfigurationKey: CodingKey {
    package let stringValue: String
    package let intValue: Int? = nil
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

/// Why an entry is not a dictionary of known keys; the caller adds where the entry is.
package struct ConfigurationEntryError: Error {
    package let reason: String
}

extension Decoder {
    /// The entry as a dictionary whose keys are all in `allowed`; `notADictionary` is the reason given otherwise.
    package func configurationEntry(
        allowedKeys allowed: Set<String>, notADictionary: String
    ) throws(ConfigurationEntryError) -> KeyedDecodingContainer<ConfigurationKey> {
        let container: KeyedDecodingContainer<ConfigurationKey>
        do {
            container = try self.container(keyedBy: ConfigurationKey.self)
        } catch {
            throw ConfigurationEntryError(reason: notADictionary)
        }
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw ConfigurationEntryError(
                reason: "has unknown key '\(unknown)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
        return container
    }
}

/// Why `text`, a name from a configuration file, cannot name anything: it holds a control character (a NUL, a
/// newline, a byte a mangled name would read as a pointer). nil when it has none.
package func controlCharacterProblem(in text: String) -> String? {
    guard let scalar = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) else { return nil }
    let code = String(scalar.value, radix: 16, uppercase: true)
    return "holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code), which no name can hold"
}
