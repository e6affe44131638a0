@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

/// Handlers and targets named by records, as `BeeHiveRoute(...)` and `BeeHiveTarget(...)` write them.
final class UserHandler: RouteHandler {
    static let handled = Mutex<[String: RouteParameters]>([:])
    static let instances = Mutex(0)

    init() { Self.instances.withLock { $0 += 1 } }

    func handle(_ parameters: RouteParameters) -> Bool {
        guard let id = parameters["id"] else { return false }
        Self.handled.withLock { $0[id] = parameters }
        return true
    }
}

/// Counts with an atomic, not a `Mutex`: its threads contend, and ThreadSanitizer cannot see a contended `Mutex`.
final class TogetherHandler: RouteHandler {
    static let handled = Counter()

    init() {}

    func handle(_ parameters: RouteParameters) -> Bool {
        guard parameters["id"] != nil, parameters.pattern == "/together/:id" else { return false }
        Self.handled.increment()
        return true
    }
}

final class NotARouteHandler {}

final class OrderTarget: MediatorTarget {
    enum Action: String { case status }

    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? {
        switch action {
        case .status: "order \(parameters["id"] ?? "?") shipped"
        }
    }
}

@Suite struct AnnotationTests {
    private static func record(_ text: String, object: String = "/opt/app/libShop.so", offset: Int = 0) throws -> AnnotationRecord {
        let section = text.contains("|module|") ? SectionName.modules : SectionName.routes
        return try RecordParser.parse(bytes: Array(text.utf8), origin: RecordOrigin(objectPath: object, section: section, offset: offset)).get()
    }

    private static func update(added: [AnnotationRecord] = [], removed: [AnnotationRecord] = []) -> RegistryUpdate {
        var update = RegistryUpdate()
        update.added = added
        update.removed = removed
        return update
    }

    @Test func routeRecordsRegisterHandlerTypes() throws {
        let router = Router()
        let plain = try Self.record("beehive:1|route|/annotated/user/:id|BeeHiveRouterTests.UserHandler")
        let scoped = try Self.record(
            "beehive:1|route|/annotated/:id|BeeHiveRouterTests.UserHandler|scheme=shop|priority=7", offset: 64)
        #expect(router.apply(Self.update(added: [plain, scoped])).isEmpty)

        let before = UserHandler.instances.withLock { $0 }
        #expect(try router.route("app://annotated/user/ann-1?tab=x").isHandled)
        #expect(try router.route("shop://annotated/ann-2").isHandled)
        #expect(UserHandler.instances.withLock { $0 } - before >= 2)
        let first = try #require(UserHandler.handled.withLock { $0["ann-1"] })
        #expect(first["tab"] == "x")
        #expect(first.pattern == "/annotated/user/:id")
        let second = try #require(UserHandler.handled.withLock { $0["ann-2"] })
        #expect(second.scheme == "shop")
        #expect(router.routes(scheme: "shop").map(\.priority) == [7])

        #expect(router.apply(Self.update(removed: [plain])).isEmpty)
        #expect(!router.canRoute("app://annotated/user/ann-3"))
        #expect(router.canRoute("shop://annotated/ann-3"))
    }

    /// A record's handler type is resolved at the route's first match: many threads matching it first together
    /// all get the same answer (and under ThreadSanitizer no race is reported).
    @Test func firstMatchesFromManyThreadsAllFindTheHandlerType() async throws {
        let router = Router()
        let record = try Self.record("beehive:1|route|/together/:id|BeeHiveRouterTests.TogetherHandler", offset: 128)
        #expect(router.apply(Self.update(added: [record])).isEmpty)
        let handled = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask { (try? router.route("app://together/t-\(index)"))?.isHandled ?? false }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(handled == 32)
        #expect(TogetherHandler.handled.count == 32)
    }

    @Test func annotatedRoutesNameTheirRecordAsOrigin() throws {
        let router = Router()
        let text = "beehive:1|route|/origin/:id|BeeHiveRouterTests.UserHandler|priority=3"
        #expect(router.apply(Self.update(added: [try Self.record(text, object: "/opt/app/libOrigin.so", offset: 128)])).isEmpty)
        let origin = "/opt/app/libOrigin.so [\(SectionName.routes)+128] \"\(text)\""
        #expect(router.routes().map(\.origin) == [origin])
        #expect(router.routeTableDescription.contains("/origin/:id  priority 3  BeeHiveRouterTests.UserHandler  \(origin)"))
        #expect(!router.routeTableDescription.contains("Router+Annotations.swift"))
    }

    /// Handler types are resolved at the first match, not at registration: a record naming a missing or
    /// non-conforming type registers its route, its matches are not handled, and `handlerProblem(of:)` names
    /// the record and its object file. A malformed pattern is refused at once.
    @Test func unusableRouteRecordsAreReportedWithTheirObject() throws {
        let router = Router()
        let missing = try Self.record("beehive:1|route|/a/:id|BeeHiveRouterTests.NoSuchHandler", object: "/opt/app/libMissing.so")
        let wrong = try Self.record("beehive:1|route|/b/:id|BeeHiveRouterTests.NotARouteHandler", object: "/opt/app/libWrong.so")
        let malformed = try Self.record("beehive:1|route|/c/(:id|BeeHiveRouterTests.UserHandler", object: "/opt/app/libBad.so")
        let good = try Self.record("beehive:1|route|/d/:id|BeeHiveRouterTests.UserHandler")
        let diagnostics = router.apply(Self.update(added: [missing, wrong, malformed, good]))

        #expect(diagnostics.count == 1)
        #expect(diagnostics.map(\.objectPath) == ["/opt/app/libBad.so"])
        guard case .malformedRecord(let reason) = diagnostics.first?.kind else {
            Issue.record("expected a malformed record, got \(diagnostics)")
            return
        }
        #expect(reason.contains("never closed"))
        #expect(diagnostics[0].record == malformed.text)
        #expect(diagnostics[0].section == SectionName.routes)
        #expect(router.routes().map(\.pattern.text) == ["/a/:id", "/b/:id", "/d/:id"])

        let problems = [missing, wrong, good].map(Router.handlerProblem(of:))
        #expect(problems.map { $0?.objectPath } == ["/opt/app/libMissing.so", "/opt/app/libWrong.so", nil])
        #expect(problems.map { $0?.record } == [missing.text, wrong.text, nil])
        #expect(problems[0]?.kind == .unresolvedType(name: "BeeHiveRouterTests.NoSuchHandler"))
        #expect(problems[1]?.kind == .nonConformingType(name: "BeeHiveRouterTests.NotARouteHandler", expected: "RouteHandler.Type"))
        #expect(try !router.route("app://a/1").isHandled)
        #expect(try !router.route("app://b/1").isHandled)
        #expect(try router.route("app://d/lazy-1").isHandled)
    }

    @Test func targetRecordsRegisterMediatorTargets() throws {
        let mediator = Mediator()
        let target = try Self.record("beehive:1|target|orders|BeeHiveRouterTests.OrderTarget")
        #expect(mediator.apply(Self.update(added: [target])).isEmpty)
        #expect(try mediator.perform(target: "orders", action: "status", parameters: ["id": "12"]) as? String == "order 12 shipped")
        #expect(try mediator.perform(url: "app://orders/status?id=13") as? String == "order 13 shipped")

        mediator.apply(Self.update(removed: [target]))
        #expect(throws: MediatorError.self) { try mediator.perform(target: "orders", action: "status") }
    }

    @Test func codeRegisteredTargetsTakePrecedenceOverAnnotatedOnes() throws {
        let mediator = Mediator()
        let target = try Self.record("beehive:1|target|shop|BeeHiveRouterTests.OrderTarget")
        mediator.register(ShopTarget.self, as: "shop")
        mediator.apply(Self.update(added: [target]))
        #expect(mediator.canPerform(target: "shop", action: "detail"))
        #expect(!mediator.canPerform(target: "shop", action: "status"))
        mediator.removeTarget(named: "shop")
        #expect(mediator.targetNames.isEmpty)
    }

    @Test func unusableTargetRecordsAreReported() throws {
        let mediator = Mediator()
        let wrong = try Self.record("beehive:1|target|bad|BeeHiveRouterTests.UserHandler", object: "/opt/app/libT.so")
        let diagnostics = mediator.apply(Self.update(added: [wrong]))
        #expect(diagnostics.map(\.objectPath) == ["/opt/app/libT.so"])
        #expect(diagnostics.first?.kind == .nonConformingType(name: "BeeHiveRouterTests.UserHandler", expected: "MediatorTarget.Type"))
        #expect(diagnostics.first?.description.contains("libT.so") == true)
    }

    @Test func routerIgnoresOtherRecordKinds() throws {
        let router = Router()
        let module = try Self.record("beehive:1|module|BeeHiveRouterTests.UserHandler")
        let target = try Self.record("beehive:1|target|orders|BeeHiveRouterTests.OrderTarget")
        #expect(router.apply(Self.update(added: [module, target])).isEmpty)
        #expect(router.allRoutes.isEmpty)
    }
}

@Suite struct RepeatedAnnotationTests {
    @Test func applyingTheSameRecordTwiceKeepsOneRegistration() throws {
        let origin = RecordOrigin(objectPath: "/opt/app/libTwice.so", section: SectionName.routes, offset: 0)
        let route = try RecordParser.parse(bytes: Array("beehive:1|route|/twice/:id|BeeHiveRouterTests.UserHandler".utf8), origin: origin).get()
        let target = try RecordParser.parse(bytes: Array("beehive:1|target|twice|BeeHiveRouterTests.OrderTarget".utf8), origin: origin).get()
        var update = RegistryUpdate()
        update.added = [route, target]
        let router = Router()
        let mediator = Mediator()
        router.apply(update)
        router.apply(update)
        mediator.apply(update)
        mediator.apply(update)
        #expect(router.routes().count == 1)

        var removal = RegistryUpdate()
        removal.removed = [route, target]
        router.apply(removal)
        mediator.apply(removal)
        #expect(router.routes().isEmpty)
        #expect(mediator.targetNames.isEmpty)
    }

    @Test func clearingAnUnmatchedHandlerCreatesNoTable() {
        let router = Router()
        router.setUnmatchedHandler(nil, forScheme: "none")
        #expect(router.schemes.isEmpty)
    }
}
