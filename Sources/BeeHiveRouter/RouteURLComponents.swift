/// Where reading a URL puts its path components: a ``RouteURL`` keeps them with the rest of what it read, a
/// routing call's ``RouteURL/ComponentBuffer`` in memory the call provides.
protocol RouteURLComponentSink: ~Copyable {
    mutating func append(_ component: RouteURL.Component)
    /// JLRoutes' reading glues an anchor to the last component.
    var lastComponent: RouteURL.Component? { get }
    mutating func replaceLast(with component: RouteURL.Component)
}

extension RouteURL {
    /// The components of a URL: the first eight stored inline, more in an array, so that reading a typical URL
    /// allocates nothing.
    struct Components: RandomAccessCollection, RouteURLComponentSink {
        static let inlineCapacity = 8
        private typealias Inline = (Component, Component, Component, Component, Component, Component, Component, Component)

        private var inline: Inline
        /// Every component once there are more than `inlineCapacity`; empty before.
        private var spilled: [Component] = []
        private(set) var count = 0

        init() {
            assert(MemoryLayout<Component>.size == MemoryLayout<Component>.stride, "inline components would overlap")
            let empty = Component(start: 0, end: 0, isFragmentMarker: false, hasEscape: false, hasPlus: false)
            inline = (empty, empty, empty, empty, empty, empty, empty, empty)
        }

        var startIndex: Int { 0 }
        var endIndex: Int { count }

        subscript(position: Int) -> Component {
            precondition(position >= 0 && position < count, "component index out of range")
            if !spilled.isEmpty { return spilled[position] }
            // A switch rather than the tuple's bytes: reading those would copy the whole tuple first.
            switch position {
            case 0: return inline.0
            case 1: return inline.1
            case 2: return inline.2
            case 3: return inline.3
            case 4: return inline.4
            case 5: return inline.5
            case 6: return inline.6
            default: return inline.7
            }
        }

        @inline(__always)
        mutating func append(_ component: Component) {
            if count < Self.inlineCapacity {
                withUnsafeMutableBytes(of: &inline) {
                    $0.storeBytes(of: component, toByteOffset: count * MemoryLayout<Component>.stride, as: Component.self)
                }
            } else {
                if spilled.isEmpty {
                    var all: [Component] = []
                    all.reserveCapacity(2 * Self.inlineCapacity)
                    withUnsafeBufferPointer { all.append(contentsOf: $0) }
                    spilled = all
                }
                spilled.append(component)
            }
            count += 1
        }

        var lastComponent: Component? { last }

        mutating func replaceLast(with component: Component) {
            precondition(count > 0, "no component to replace")
            if !spilled.isEmpty {
                spilled[count - 1] = component
            } else {
                withUnsafeMutableBytes(of: &inline) {
                    $0.storeBytes(of: component, toByteOffset: (count - 1) * MemoryLayout<Component>.stride, as: Component.self)
                }
            }
        }

        func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Component>) -> Result) -> Result {
            if !spilled.isEmpty { return spilled.withUnsafeBufferPointer(body) }
            return withUnsafeBytes(of: inline) { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Component.self), count: count))
            }
        }
    }
}
