@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

@Suite struct TypedRouteTests {
    struct UserRoute: Decodable, Equatable {
        var id: Int
        var tab: String?
    }

    enum Tab: String, Decodable { case posts, likes }

    struct Everything: Decodable, Equatable {
        var name: String
        var count: UInt8
        var ratio: Double
        var on: Bool
        var tab: Tab
        var tags: [String]
        var ids: [Int]
        var missing: Int?
    }

    @Test func parametersDecodeIntoATypedRoute() throws {
        let router = Router()
        try router.addRoute("/user/:id")
        let match = try #require(router.match("app://user/42?tab=posts"))
        #expect(try match.parameters.decode(UserRoute.self) == UserRoute(id: 42, tab: "posts"))
        #expect(try router.match("app://user/7")!.parameters.decode(UserRoute.self) == UserRoute(id: 7, tab: nil))
    }

    @Test func everySupportedKindOfProperty() throws {
        let parameters = RouteParameters(["name": "a b", "count": "200", "ratio": "0.5", "on": "yes", "tab": "likes",
                                          "tags": ["x", "y"], "ids": ["1", "2"]])
        #expect(try parameters.decode(Everything.self)
            == Everything(name: "a b", count: 200, ratio: 0.5, on: true, tab: .likes, tags: ["x", "y"], ids: [1, 2], missing: nil))
    }

    @Test func aMissingParameterIsNamed() {
        #expect(throws: RouteParameterError(parameter: "id", type: String(reflecting: UserRoute.self), reason: .missing)) {
            try RouteParameters(["tab": "x"]).decode(UserRoute.self)
        }
    }

    @Test func aMistypedParameterIsNamedWithItsText() {
        let error = #expect(throws: RouteParameterError.self) {
            try RouteParameters(["id": "abc"]).decode(UserRoute.self)
        }
        #expect(error?.parameter == "id")
        #expect(error?.reason == .mistyped(expected: "Int", value: "abc"))
        #expect(error?.description.contains("parameter \"id\" is \"abc\", not a valid Int") == true)
    }

    @Test func mistypedEnumsAndListElementsAreNamed() {
        let base: [String: any Sendable] = ["name": "n", "count": "1", "ratio": "1", "on": "true", "tab": "posts", "tags": "t", "ids": "1"]
        var badTab = base
        badTab["tab"] = "nope"
        #expect(throws: RouteParameterError(
            parameter: "tab", type: String(reflecting: Everything.self), reason: .mistyped(expected: "Tab", value: "nope"))) {
            try RouteParameters(badTab).decode(Everything.self)
        }
        var badID = base
        badID["ids"] = ["1", "x"]
        #expect(throws: RouteParameterError(
            parameter: "ids[1]", type: String(reflecting: Everything.self), reason: .mistyped(expected: "Int", value: "x"))) {
            try RouteParameters(badID).decode(Everything.self)
        }
        var overflow = base
        overflow["count"] = "300"
        #expect(throws: RouteParameterError(
            parameter: "count", type: String(reflecting: Everything.self), reason: .mistyped(expected: "UInt8", value: "300"))) {
            try RouteParameters(overflow).decode(Everything.self)
        }
    }

    @Test func aTypedHandlerGetsItsTypeAndDeclinesWhatDoesNotDecode() throws {
        let router = Router()
        let seen = Mutex<[String]>([])
        try router.addRoute("/user/:id", as: UserRoute.self) { route, _ in
            seen.withLock { $0.append("typed \(route.id) \(route.tab ?? "-")") }
            return true
        }
        try router.addRoute("/user/:name") { parameters in
            seen.withLock { $0.append("name \(parameters["name"]!)") }
            return true
        }
        #expect(try router.route("app://user/42?tab=likes").isHandled)
        #expect(try router.route("app://user/alice").isHandled)
        #expect(seen.withLock { $0 } == ["typed 42 likes", "name alice"])
        #expect(router.routes().first?.handler == "\(String(reflecting: UserRoute.self)) (typed)")
    }
}

@Suite struct RouteTableDescriptionTests {
    final class ProfileHandler: RouteHandler {
        init() {}
        func handle(_ parameters: RouteParameters) -> Bool { true }
    }

    @Test func theTableListsEveryRouteInTheOrderTried() throws {
        let router = Router()
        try router.addRoute("/a/:id") { _ in true }
        let line = #line + 1
        try router.addRoute("/b(/:tab)", priority: 5, handlerType: ProfileHandler.self)
        try router.addRoute("/item/:id", scheme: "shop", as: TypedRouteTests.UserRoute.self) { _, _ in true }
        router.setFallsBackToGlobalRoutes(true, forScheme: "shop")
        router.addScheme("empty")
        let file = #fileID
        #expect(router.routeTableDescription == """
            global table
              1. /b(/:tab)  priority 5  \(String(reflecting: ProfileHandler.self))  \(file):\(line)
                   tried as /b/:tab, /b
              2. /a/:id  priority 0  closure  \(file):\(line - 2)
            scheme "empty"
              (no routes)
            scheme "shop" (falls back to the global table)
              1. /item/:id  priority 0  \(String(reflecting: TypedRouteTests.UserRoute.self)) (typed)  \(file):\(line + 1)
            """)
    }
}
