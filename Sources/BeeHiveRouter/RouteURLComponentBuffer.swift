extension RouteURL {
    /// The path components of a URL, read for one routing call: the first eight inline, in the caller's stack
    /// frame, more on the heap (as a ``RouteURL`` keeps them). Routing reads only the components, where they were
    /// written: a ``RouteURL`` (about 300 bytes with the rest of what it read) was copied once out of its
    /// initializer and once more when the walk read its components as a buffer. Passed `inout` for that reason: a
    /// borrowed buffer is copied to be read through a pointer. Sixteen inline cost a call to `memset` per routing
    /// call, to clear them.
    struct ComponentBuffer: ~Copyable, RouteURLComponentSink {
        private typealias Inline = (Component, Component, Component, Component, Component, Component, Component, Component)
        private static let inlineCapacity = 8

        private var inline: Inline
        /// Every component once there are more than fit inline; nil before.
        private var heap: UnsafeMutablePointer<Component>?
        private var heapCapacity = 0
        private(set) var count = 0
        /// How the URL is read, so that a match reads it again the same way (``MatchedURL``).
        let treatsHostAsPathComponent: Bool
        let readsLikeJLRoutes: Bool

        @inline(__always)
        init(reading configuration: RouterConfiguration) {
            let empty = Component(start: 0, end: 0, isFragmentMarker: false, hasEscape: false, hasPlus: false)
            inline = (empty, empty, empty, empty, empty, empty, empty, empty)
            treatsHostAsPathComponent = configuration.alwaysTreatsHostAsPathComponent
            readsLikeJLRoutes = configuration.readsURLsLikeJLRoutes
        }

        deinit {
            heap?.deallocate()
        }

        /// Reads the components of `text`, replacing any read before.
        @inline(__always)
        mutating func read(_ text: String) {
            count = 0
            let (treatsHost, likeJLRoutes) = (treatsHostAsPathComponent, readsLikeJLRoutes)
            _ = RouteURL.withBytes(of: text) { bytes in
                RouteURL.read(bytes, treatsHostAsPathComponent: treatsHost, readsLikeJLRoutes: likeJLRoutes, into: &self)
            }
        }

        /// Runs `body` on the components read, in place.
        @inline(__always)
        mutating func withComponents<Result>(_ body: (UnsafeBufferPointer<Component>) -> Result) -> Result {
            if let heap { return body(UnsafeBufferPointer(start: heap, count: count)) }
            let count = count
            return withUnsafeMutableBytes(of: &inline) { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Component.self), count: count))
            }
        }

        @inline(__always)
        mutating func append(_ component: Component) {
            if let heap, count < heapCapacity {
                (heap + count).initialize(to: component)
            } else if heap == nil && count < Self.inlineCapacity {
                withUnsafeMutableBytes(of: &inline) {
                    $0.storeBytes(of: component, toByteOffset: count * MemoryLayout<Component>.stride, as: Component.self)
                }
            } else {
                grow()
                (heap! + count).initialize(to: component)
            }
            count += 1
        }

        var lastComponent: Component? {
            guard count > 0 else { return nil }
            if let heap { return heap[count - 1] }
            return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: (count - 1) * MemoryLayout<Component>.stride, as: Component.self) }
        }

        mutating func replaceLast(with component: Component) {
            precondition(count > 0, "no component to replace")
            if let heap {
                heap[count - 1] = component
            } else {
                withUnsafeMutableBytes(of: &inline) {
                    $0.storeBytes(of: component, toByteOffset: (count - 1) * MemoryLayout<Component>.stride, as: Component.self)
                }
            }
        }

        /// Moves the components to a heap buffer twice as large. Components are plain integers, so memory is copied
        /// and freed without deinitializing it.
        @inline(never)
        private mutating func grow() {
            let capacity = max(2 * Self.inlineCapacity, 2 * heapCapacity)
            let larger = UnsafeMutablePointer<Component>.allocate(capacity: capacity)
            if let heap {
                larger.initialize(from: heap, count: count)
                heap.deallocate()
            } else {
                withUnsafeBytes(of: inline) { raw in
                    larger.initialize(from: raw.baseAddress!.assumingMemoryBound(to: Component.self), count: count)
                }
            }
            heap = larger
            heapCapacity = capacity
        }
    }
}
