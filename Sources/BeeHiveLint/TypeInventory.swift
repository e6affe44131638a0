/// The Swift types and protocols that a set of binaries define, from their symbol tables (nominal type
/// descriptors `$s…Mn`, protocol descriptors `$s…Mp`) and from their Swift type metadata sections.
struct TypeInventory {
    struct Definition: Hashable {
        let path: SwiftTypePath
        let objectPath: String
        /// From type metadata; symbols do not say.
        let isGeneric: Bool
    }

    /// By the last component's name, which every lookup knows.
    private var definitions: [String: Set<Definition>] = [:]

    /// Adds the types `file` defines; returns its metadata sections whose headers are damaged.
    mutating func add(_ file: ELFFile) -> [ELFFile.SectionError] {
        var seen = Set<SwiftTypePath>()
        let metadata = SwiftTypeMetadata.entries(in: file)
        for entry in metadata.entries where seen.insert(entry.path).inserted {
            insert(Definition(path: entry.path, objectPath: file.path, isGeneric: entry.isGeneric))
        }
        file.forEachSymbol { name, isDefined in
            // Cheap filter before parsing: only descriptor symbols matter.
            guard isDefined, name[0] == 0x24, name[1] == 0x73 else { return }
            let symbol = String(cString: name)
            guard let path = SwiftMangledName.descriptorType(ofSymbol: symbol), seen.insert(path).inserted else { return }
            insert(Definition(path: path, objectPath: file.path, isGeneric: false))
        }
        return metadata.problems
    }

    private mutating func insert(_ definition: Definition) {
        definitions[definition.path.components[definition.path.components.count - 1].name, default: []].insert(definition)
    }

    /// What `reference` names, protocols only or nominal types only.
    func definitions(namedBy reference: SwiftTypePath, protocols: Bool) -> [Definition] {
        let name = reference.components[reference.components.count - 1].name
        return (definitions[name] ?? []).filter { ($0.path.kind == .protocol) == protocols && $0.path.isNamed(by: reference) }
            .sorted { ($0.objectPath, $0.path.dottedName) < ($1.objectPath, $1.path.dottedName) }
    }

    /// The closest defined name for a reference that names nothing: the same name in another module or
    /// context, or a name within two edits (a typo).
    func suggestion(for reference: SwiftTypePath, protocols: Bool) -> SwiftTypePath? {
        let wanted = reference.dottedName
        var best: (distance: Int, path: SwiftTypePath)?
        for definition in definitions.values.joined() where (definition.path.kind == .protocol) == protocols {
            let candidate = definition.path
            let distance: Int
            if candidate.components.last?.name == reference.components.last?.name {
                distance = 0
            } else if let edits = Self.editDistance(candidate.dottedName, wanted, limit: 2) {
                distance = edits
            } else {
                continue
            }
            if let current = best, (current.distance, current.path.dottedName) <= (distance, candidate.dottedName) {
                continue
            }
            best = (distance, candidate)
        }
        return best?.path
    }

    /// The Levenshtein distance, or nil when it exceeds `limit`. Only the band of cells within `limit` of the
    /// diagonal is computed (any path leaving it costs more than `limit`), so the work grows with the names'
    /// length times the limit, not with the product of their lengths.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int? {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty else { return b.count }
        let outside = limit + 1
        var previous = (0...b.count).map { min($0, outside) }
        var current = [Int](repeating: outside, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            current[0] = min(i, outside)
            if low > 1 { current[low - 1] = outside }
            var best = current[0]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution, outside)
                    best = min(best, current[j])
                }
            }
            if high < b.count { current[high + 1] = outside }
            guard best <= limit else { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
