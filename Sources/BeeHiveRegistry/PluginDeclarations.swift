/// What the plugins of one index declare, made in one pass when the index is built: the first plugin declaring
/// each identity, the declarations that more than one plugin makes, and which plugins carry modules. Conflicts,
/// first-use lookups and the launch order all read it, so each record's identity is made once per index.
struct PluginDeclarations: Sendable {
    /// The position in the index of the first plugin declaring each identity.
    private(set) var first: [RecordIdentity: Int] = [:]
    /// Identities declared by more than one plugin file: every such file's path, in index order.
    private(set) var repeated: [RecordIdentity: [String]] = [:]
    /// Positions of the plugins that carry module records.
    private(set) var modulePlugins: [Int] = []

    init(_ plugins: [IndexedPlugin]) {
        first.reserveCapacity(plugins.reduce(0) { $0 + $1.records.count })
        // Read in place: iterating the arrays copied every plugin and record, a retain and a release each.
        plugins.withUnsafeBufferPointer { plugins in
            for position in plugins.indices {
                var carriesModules = false
                plugins[position].records.withUnsafeBufferPointer { records in
                    for index in records.indices {
                        if records[index].kind == .module { carriesModules = true }
                        let identity = records[index].identity
                        // One hash for the usual identity, declared once; a repeated one is put back.
                        guard let earlier = first.updateValue(position, forKey: identity) else { continue }
                        first[identity] = earlier
                        guard earlier != position else { continue }
                        let path = plugins[position].path
                        if repeated[identity]?.contains(path) != true {
                            repeated[identity, default: [plugins[earlier].path]].append(path)
                        }
                    }
                }
                if carriesModules { modulePlugins.append(position) }
            }
        }
    }
}
