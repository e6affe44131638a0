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
