import Testing

@_spi(BeeHiveInternals) @testable import BeeHiveRouter

/// The copies of a router's tables that routing calls lease without its lock.
@Suite struct TableLeasesTests {
    /// Something the tables hold, to see when a copy lets go of it.
    final class Held: RouteInterceptor {
        func intercept(_ request: RouteRequest) -> InterceptorDecision { .proceed }
    }

    private static func tables(holding held: Held) -> RouterTables {
        var tables = RouterTables(configuration: RouterConfiguration())
        tables.globalInterceptors = [RouterTables.InterceptorEntry(id: InterceptorID(rawValue: 1), interceptor: held)]
        return tables
    }

    @Test func aThreadLeasesItsSlotOnceAtATime() throws {
        let leases = TableLeases()
        let lease = try #require(leases.lease())
        // The same thread again (a handler routing inside a routing call) finds its slot taken.
        #expect(leases.lease() == nil)
        leases.release(lease)
        let again = try #require(leases.lease())
        leases.release(again)
    }

    @Test func aCopyIsCurrentUntilTheTablesChange() throws {
        let leases = TableLeases()
        let lease = try #require(leases.lease())
        #expect(!leases.isCurrent(lease), "a new slot holds no copy")
        leases.fill(lease, with: RouterTables(configuration: RouterConfiguration()), version: leases.currentVersion)
        #expect(leases.isCurrent(lease))
        leases.release(lease)

        let next = try #require(leases.lease())
        #expect(leases.isCurrent(next), "the copy is kept between calls")
        leases.release(next)
        leases.invalidate()
        let afterChange = try #require(leases.lease())
        #expect(!leases.isCurrent(afterChange))
        leases.release(afterChange)
    }

    /// A change empties the idle copies before it is made, so that the router's tables are held by no copy and
    /// change in place; a copy leased meanwhile is kept until its call ends, then let go of.
    @Test func changesEmptyIdleCopiesAndLeasedOnesAreLetGoOfWhenReturned() throws {
        let leases = TableLeases()
        weak var idleHeld: Held?
        do {
            let held = Held()
            idleHeld = held
            let lease = try #require(leases.lease())
            leases.fill(lease, with: Self.tables(holding: held), version: leases.currentVersion)
            leases.release(lease)
        }
        #expect(idleHeld != nil, "the idle slot keeps its copy")
        leases.invalidate()
        #expect(idleHeld == nil, "the change emptied the idle copy")

        weak var leasedHeld: Held?
        let lease = try #require(leases.lease())
        do {
            let held = Held()
            leasedHeld = held
            leases.fill(lease, with: Self.tables(holding: held), version: leases.currentVersion)
        }
        leases.invalidate()
        #expect(leasedHeld != nil, "a leased copy is not touched by a change")
        var ranBeforeLettingGo = false
        leases.release(lease) { ranBeforeLettingGo = true }
        #expect(ranBeforeLettingGo)
        #expect(leasedHeld == nil, "an old copy is let go of when its call ends")
    }
}
