/// What the plugins of one index declare, made in one pass when the index is built: the first plugin declaring
/// each identity, the declarations that more than one plugin makes, and which plugins carry modules. Conflicts,
/// first-use lookups and the launch order all read it.
///
/// Declarations are found by the bytes of their identity (kind, name, qualifier) as the records hold them,
/// hashed in place: making each record's identity as two strings and hashing those cost a fifth of a warm
/// start. Identities as `RecordIdentity` values are made only for the rare repeated declaration, and when asked.
struct PluginDeclarations: Sendable {
    /// The index's plugins, in its order (the same storage, not a copy).
    private let plugins: [IndexedPlugin]
    /// Open addressing with linear probing, a power of two of slots, at most half full. Slot `i` is the
    /// identity's hash at `2 * i` (zero when empty: no identity hashes to it) and, at `2 * i + 1`, the first
    /// declaring plugin's position in the high 32 bits and the record's position in that plugin in the low 32.
    private let slots: [UInt64]
    /// Identities declared by more than one plugin file: every such file's path, in index order.
    let repeated: [RecordIdentity: [String]]
    /// Positions of the plugins that carry module records.
    let modulePlugins: [Int]

    init(_ plugins: [IndexedPlugin]) {
        self.plugins = plugins
        let count = plugins.reduce(0) { $0 + $1.records.count }
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity * 2)
        var repeated: [RecordIdentity: [String]] = [:]
        var modulePlugins: [Int] = []
        // Read in place: iterating the arrays copied every plugin and record, a retain and a release each.
        plugins.withUnsafeBufferPointer { plugins in
            for position in plugins.indices {
                var carriesModules = false
                plugins[position].records.withUnsafeBufferPointer { records in
                    func declare(
                        _ index: Int, _ kind: AnnotationKind, _ name: UnsafeRawBufferPointer, _ qualifier: UnsafeRawBufferPointer
                    ) {
                        let hash = Self.hash(kind, name, qualifier)
                        let (slot, earlier) = Self.probe(slots, plugins, hash, kind, name, qualifier)
                        guard let earlier else {
                            slots[2 * slot] = hash
                            slots[2 * slot + 1] = UInt64(position) << 32 | UInt64(index)
                            return
                        }
                        // A declaration repeated within one plugin is its own business.
                        guard earlier.plugin != position else { return }
                        let path = plugins[position].path
                        let identity = records[index].identity
                        if repeated[identity]?.contains(path) != true {
                            repeated[identity, default: [plugins[earlier.plugin].path]].append(path)
                        }
                    }
                    for index in records.indices {
                        let kind = records[index].kind
                        if kind == .module { carriesModules = true }
                        // Bytes in place without a closure: calling one on a record read from the buffer made the
                        // compiler copy the record first (a retain and a release each).
                        if let (name, qualifier) = records[index].inPlaceIdentityBytes {
                            declare(index, kind, name, qualifier)
                        } else {
                            records[index].withIdentityBytes { declare(index, kind, $0, $1) }
                        }
                    }
                }
                if carriesModules { modulePlugins.append(position) }
            }
        }
        self.slots = slots
        self.repeated = repeated
        self.modulePlugins = modulePlugins
    }

    /// The position in the index of the first plugin declaring `identity`.
    func firstPlugin(declaring identity: RecordIdentity) -> Int? {
        var name = identity.name
        var qualifier = identity.qualifier
        return name.withUTF8 { name in
            qualifier.withUTF8 { qualifier in
                firstPlugin(identity.kind, UnsafeRawBufferPointer(name), UnsafeRawBufferPointer(qualifier))
            }
        }
    }

    /// Every identity the plugins declare of `kind`, each once, made as values.
    func identities(of kind: AnnotationKind) -> [RecordIdentity] {
        stride(from: 0, to: slots.count, by: 2).compactMap { at in
            guard slots[at] != 0 else { return nil }
            let place = Self.place(slots[at + 1])
            let record = plugins[place.plugin].records[place.record]
            return record.kind == kind ? record.identity : nil
        }
    }

    private func firstPlugin(_ kind: AnnotationKind, _ name: UnsafeRawBufferPointer, _ qualifier: UnsafeRawBufferPointer) -> Int? {
        plugins.withUnsafeBufferPointer { plugins in
            Self.probe(slots, plugins, Self.hash(kind, name, qualifier), kind, name, qualifier).found?.plugin
        }
    }

    /// The slot of `slots` holding the declaration of this identity, with where its first declaration is; or
    /// the empty slot where it would go.
    private static func probe(
        _ slots: [UInt64], _ plugins: UnsafeBufferPointer<IndexedPlugin>, _ hash: UInt64, _ kind: AnnotationKind,
        _ name: UnsafeRawBufferPointer, _ qualifier: UnsafeRawBufferPointer
    ) -> (slot: Int, found: (plugin: Int, record: Int)?) {
        let mask = slots.count / 2 - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[2 * slot] != 0 {
            if slots[2 * slot] == hash {
                let place = place(slots[2 * slot + 1])
                if declares(plugins[place.plugin].records[place.record], kind, name, qualifier) { return (slot, place) }
            }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    private static func place(_ packed: UInt64) -> (plugin: Int, record: Int) {
        (Int(packed >> 32), Int(packed & 0xffff_ffff))
    }

    /// Whether `record` declares the identity of these bytes.
    private static func declares(
        _ record: AnnotationRecord, _ kind: AnnotationKind, _ name: UnsafeRawBufferPointer, _ qualifier: UnsafeRawBufferPointer
    ) -> Bool {
        record.kind == kind
            && record.withIdentityBytes { otherName, otherQualifier in
                otherName.elementsEqual(name) && otherQualifier.elementsEqual(qualifier)
            }
    }

    /// A hash of the identity's kind and bytes, eight bytes at a time; never zero.
    private static func hash(_ kind: AnnotationKind, _ name: UnsafeRawBufferPointer, _ qualifier: UnsafeRawBufferPointer) -> UInt64 {
        func add(_ part: UnsafeRawBufferPointer, to hash: inout UInt64) {
            hash = mix(hash, UInt64(part.count))
            var index = 0
            while index + 8 <= part.count {
                hash = mix(hash, part.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index += 8
            }
            if index < part.count {
                var tail: UInt64 = 0
                withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: part[index...])) }
                hash = mix(hash, tail)
            }
        }
        var hash = 0x9e37_79b9_7f4a_7c15 &* UInt64(kind.order + 1)
        add(name, to: &hash)
        add(qualifier, to: &hash)
        return hash == 0 ? 1 : hash
    }

    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word).multipliedFullWidth(by: 0xff51_afd7_ed55_8ccd)
        return product.high ^ product.low
    }
}
