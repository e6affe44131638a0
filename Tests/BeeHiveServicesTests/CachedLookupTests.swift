import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Testing

/// The cached lookup path: each thread's copy of the cached instances, checked against what the manager holds.
@Suite struct CachedLookupTests {
    /// One class per type argument, so that a test can register as many distinct service types as it needs.
    final class Marker<Tag>: Sendable {}

    private func registerMarker<Tag>(_ tag: Tag.Type, in manager: ServiceManager) {
        manager.register(Marker<Tag>.self, scope: .singleton) { _, _ in Marker<Tag>() }
    }

    /// The identity of the instance a lookup of `Marker<Tag>` returns.
    private func lookUpMarker<Tag>(_ tag: Tag.Type, in manager: ServiceManager) throws -> ObjectIdentifier {
        ObjectIdentifier(try manager.resolve(Marker<Tag>.self))
    }

    private func lookUpAll(in manager: ServiceManager) throws -> [ObjectIdentifier] {
        [
            try lookUpMarker(Int8.self, in: manager), try lookUpMarker(Int16.self, in: manager),
            try lookUpMarker(Int32.self, in: manager), try lookUpMarker(Int64.self, in: manager),
            try lookUpMarker(UInt8.self, in: manager), try lookUpMarker(UInt16.self, in: manager),
            try lookUpMarker(UInt32.self, in: manager), try lookUpMarker(UInt64.self, in: manager),
            try lookUpMarker(Float.self, in: manager), try lookUpMarker(Double.self, in: manager),
            try lookUpMarker(String.self, in: manager), try lookUpMarker(Bool.self, in: manager),
        ]
    }

    /// More cached services than the thread's first table holds: it grows, and every lookup still finds its own
    /// instance, the same one each time, the same one every thread gets.
    @Test func manyCachedServicesKeepTheirOwnInstances() throws {
        let manager = ServiceManager()
        registerMarker(Int8.self, in: manager); registerMarker(Int16.self, in: manager)
        registerMarker(Int32.self, in: manager); registerMarker(Int64.self, in: manager)
        registerMarker(UInt8.self, in: manager); registerMarker(UInt16.self, in: manager)
        registerMarker(UInt32.self, in: manager); registerMarker(UInt64.self, in: manager)
        registerMarker(Float.self, in: manager); registerMarker(Double.self, in: manager)
        registerMarker(String.self, in: manager); registerMarker(Bool.self, in: manager)
        let first = try lookUpAll(in: manager)
        #expect(Set(first).count == 12)
        #expect(try lookUpAll(in: manager) == first)
        #expect(try lookUpMarker(Bool.self, in: manager) == first[11])
        let seen = Locked<[[ObjectIdentifier]]>([])
        onThreads(8) { _ in
            let identities = (try? lookUpAll(in: manager)) ?? []
            seen.withLock { $0.append(identities) }
        }
        #expect(seen.withLock { $0 } == Array(repeating: first, count: 8))
    }

    /// A thread's copy belongs to one manager at a time: alternating between two managers, each lookup gets its
    /// own manager's instance.
    @Test func alternatingManagersEachGetTheirOwnInstance() throws {
        let managers = [ServiceManager(), ServiceManager()]
        for manager in managers {
            manager.register(HomeService.self, scope: .singleton) { _, _ in HomeServiceImpl() }
        }
        let instances = try managers.map { ObjectIdentifier(try $0.resolve(HomeService.self)) }
        #expect(instances[0] != instances[1])
        for _ in 0..<3 {
            for (manager, instance) in zip(managers, instances) {
                #expect(ObjectIdentifier(try manager.resolve(HomeService.self)) == instance)
            }
        }
    }

    /// A change made on another thread invalidates this thread's copy: the next lookup here sees it.
    @Test func aChangeOnAnotherThreadReachesThisThreadsCopy() throws {
        let manager = ServiceManager(duplicatePolicy: .override)
        manager.register(HomeService.self, scope: .singleton) { _, _ in HomeServiceImpl() }
        #expect(try manager.resolve(HomeService.self).title == "home")
        onThreads(1) { _ in
            manager.register(HomeService.self, scope: .singleton) { _, _ in OtherHomeServiceImpl() }
        }
        #expect(try manager.resolve(HomeService.self).title == "other home")
        let other = try manager.resolve(HomeService.self)
        onThreads(1) { _ in manager.discardInstances(of: HomeService.self) }
        #expect(try manager.resolve(HomeService.self) !== other)
    }
}
