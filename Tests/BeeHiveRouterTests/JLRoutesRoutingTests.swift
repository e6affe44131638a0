@_spi(BeeHiveInternals) import BeeHiveRouter
import Testing

/// The cases of JLRoutes' `testRouting`, `testFragmentRouting` and `testRoutingWithParameters`, written again.
@Suite struct JLRoutesRoutingTests {
    private func routingHarness() throws -> Harness {
        let harness = Harness()
        for pattern in [
            "/test", "/user/view/:userID", "/:object/:action/:primaryKey", "/",
            "/:",
            "/interleaving/:param1/foo/:param2", "/xyz/wildcard/*", "/route/:param/*",
            "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
        ] {
            try harness.add(pattern)
        }
        return harness
    }

    @Test func rootAndEmptyPaths() throws {
        let harness = try routingHarness()
        for url in ["tests:/", "tests://"] {
            let match = try #require(try harness.route(url))
            #expect(match.pattern == "/")
            #expect(match.userCount == 0)
        }
        let query = try #require(try harness.route("tests://?key=value"))
        #expect(query.pattern == "/")
        #expect(query.userCount == 1)
        #expect(query["key"] == "value")
    }

    @Test func staticRouteWithEmptyQueryAndTrailingSlash() throws {
        let harness = try routingHarness()
        for url in ["tests://test?", "tests://test/", "tests://test"] {
            let match = try #require(try harness.route(url))
            #expect(match.pattern == "/test")
            #expect(match.userCount == 0)
        }
    }

    @Test func variables() throws {
        let harness = try routingHarness()
        for url in ["tests://user/view/joeldev", "tests://user/view/joeldev/"] {
            let match = try #require(try harness.route(url))
            #expect(match.userCount == 1)
            #expect(match["userID"] == "joeldev")
            #expect(match.pattern == "/user/view/:userID")
        }
        let encoded = try #require(try harness.route("tests://user/view/joel%20levin"))
        #expect(encoded["userID"] == "joel levin")
    }

    @Test func queryAndFragmentParameters() throws {
        let harness = try routingHarness()
        for url in ["tests://user/view/joeldev?foo=bar&thing=stuff", "tests://user/view/joeldev#foo=bar&thing=stuff"] {
            let match = try #require(try harness.route(url))
            #expect(match.userCount == 3)
            #expect(match["userID"] == "joeldev")
            #expect(match["foo"] == "bar")
            #expect(match["thing"] == "stuff")
        }
    }

    @Test func routeVariablesBeatQueryParameters() throws {
        let harness = try routingHarness()
        let match = try #require(try harness.route("tests://user/view/joeldev?userID=evilPerson"))
        #expect(match.userCount == 1)
        #expect(match["userID"] == "joeldev")
    }

    @Test func severalVariables() throws {
        let harness = try routingHarness()
        let post = try #require(try harness.route("tests://post/edit/123"))
        #expect(post.userCount == 3)
        #expect(post["object"] == "post")
        #expect(post["action"] == "edit")
        #expect(post["primaryKey"] == "123")

        let interleaved = try #require(try harness.route("tests://interleaving/paramvalue1/foo/paramvalue2"))
        #expect(interleaved.userCount == 2)
        #expect(interleaved["param1"] == "paramvalue1")
        #expect(interleaved["param2"] == "paramvalue2")
    }

    @Test func wildcards() throws {
        let harness = try routingHarness()
        let empty = try #require(try harness.route("tests://xyz/wildcard"))
        #expect(empty.userCountBesidesWildcard == 0)
        #expect(empty.wildcardComponents == [])

        let long = try #require(try harness.route("tests://xyz/wildcard/matches/with/extra/path/components"))
        #expect(long.userCount == 1)
        #expect(long.wildcardComponents == ["matches", "with", "extra", "path", "components"])
        #expect(long.strings(forKey: RouteParameters.ReservedKey.wildcardComponents) == ["matches", "with", "extra", "path", "components"])

        let withVariable = try #require(try harness.route("tests://route/matches/with/wildcard"))
        #expect(withVariable.userCount == 2)
        #expect(withVariable["param"] == "matches")
        #expect(withVariable.wildcardComponents == ["with", "wildcard"])
    }

    @Test func unknownPathDoesNotRoute() throws {
        let harness = try routingHarness()
        #expect(try harness.route("tests://doesnt/exist/and/wont/match") == nil)
    }

    @Test func localhostIsNotAPathComponent() throws {
        let harness = try routingHarness()
        let match = try #require(try harness.route("http://localhost/test"))
        #expect(match.pattern == "/test")
        #expect(match.userCount == 0)
    }

    @Test func optionalGroups() throws {
        let harness = try routingHarness()
        let pattern = "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)"
        let one = try #require(try harness.route("tests://required/mustExist"))
        #expect(one.userCount == 1)
        #expect(one["requiredParam"] == "mustExist")
        #expect(one.pattern == pattern)

        let two = try #require(try harness.route("tests://required/mustExist/optional/mightExist"))
        #expect(two.userCount == 2)
        #expect(two["requiredParam"] == "mustExist")
        #expect(two["optionalParam"] == "mightExist")

        let three = try #require(try harness.route("tests://required/mustExist/optional/mightExist/moreOptional/mightExistToo"))
        #expect(three.userCount == 3)
        #expect(three["requiredParam"] == "mustExist")
        #expect(three["optionalParam"] == "mightExist")
        #expect(three["moreOptionalParam"] == "mightExistToo")
    }

    @Test func callerParametersAreMergedIn() throws {
        let harness = Harness()
        try harness.add("/foo/:routeParam")
        let match = try #require(try harness.route("/foo/bar", parameters: ["stringParam": "stringValue", "nonStringParam": 123]))
        #expect(match.userCount == 3)
        #expect(match["routeParam"] == "bar")
        #expect(match["stringParam"] == "stringValue")
        #expect(match.value(forKey: "nonStringParam", as: Int.self) == 123)
    }

    // MARK: Fragments

    private func fragmentHarness() throws -> Harness {
        let harness = Harness()
        for pattern in [
            "/user#/view/:userID", "/:object#/:action/:primaryKey", "/interleaving/:param1#/foo/:param2",
            "/xyz/wildcard#/*", "/route#/:param/*",
            "/required#/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
        ] {
            try harness.add(pattern)
        }
        return harness
    }

    @Test func fragmentPaths() throws {
        let harness = try fragmentHarness()
        for url in ["tests://user#/view/joeldev", "tests://user#/view/joeldev/"] {
            let match = try #require(try harness.route(url))
            #expect(match.userCount == 1)
            #expect(match["userID"] == "joeldev")
            #expect(match.pattern == "/user#/view/:userID")
        }
        #expect(try harness.route("tests://user#/view/joel%20levin")?["userID"] == "joel levin")
    }

    @Test func fragmentPathsWithQueries() throws {
        let harness = try fragmentHarness()
        let query = try #require(try harness.route("tests://user#/view/joeldev?foo=bar&thing=stuff"))
        #expect(query.userCount == 3)
        #expect(query["userID"] == "joeldev")
        #expect(query["foo"] == "bar")
        #expect(query["thing"] == "stuff")

        let evil = try #require(try harness.route("tests://user#/view/joeldev?userID=evilPerson"))
        #expect(evil.userCount == 1)
        #expect(evil["userID"] == "joeldev")

        let moreEvil = try #require(try harness.route("tests://user#/view/joeldev?userID=evilPerson&search=evilSearch&evilThing=evil"))
        #expect(moreEvil.userCount == 3)
        #expect(moreEvil["userID"] == "joeldev")
        #expect(moreEvil["search"] == "evilSearch")

        let both = try #require(
            try harness.route("tests://user?search=niceSearch&go=home#/view/joeldev?userID=evilPerson&&evilThing=evil"))
        #expect(both.userCount == 4)
        #expect(both["userID"] == "joeldev")
        #expect(both["go"] == "home")
        #expect(both["search"] == "niceSearch")
    }

    @Test func fragmentVariablesAndWildcards() throws {
        let harness = try fragmentHarness()
        let post = try #require(try harness.route("tests://post#/edit/123"))
        #expect(post.userCount == 3)
        #expect(post["object"] == "post")
        #expect(post["action"] == "edit")
        #expect(post["primaryKey"] == "123")

        let interleaved = try #require(try harness.route("tests://interleaving/paramvalue1#/foo/paramvalue2"))
        #expect(interleaved.userCount == 2)
        #expect(interleaved["param1"] == "paramvalue1")
        #expect(interleaved["param2"] == "paramvalue2")

        let emptyFragment = try #require(try harness.route("tests://xyz/wildcard#"))
        #expect(emptyFragment.userCountBesidesWildcard == 0)

        let wildcard = try #require(try harness.route("tests://xyz/wildcard#/matches/with/extra/path/components"))
        #expect(wildcard.userCount == 1)
        #expect(wildcard.wildcardComponents == ["matches", "with", "extra", "path", "components"])

        let variableWildcard = try #require(try harness.route("tests://route#/matches/with/wildcard"))
        #expect(variableWildcard.userCount == 2)
        #expect(variableWildcard["param"] == "matches")
        #expect(variableWildcard.wildcardComponents == ["with", "wildcard"])

        #expect(try harness.route("tests://doesnt/exist#/and/wont/match") == nil)
    }

    @Test func fragmentOptionalGroups() throws {
        let harness = try fragmentHarness()
        let one = try #require(try harness.route("tests://required#/mustExist"))
        #expect(one.userCount == 1)
        #expect(one["requiredParam"] == "mustExist")

        let two = try #require(try harness.route("tests://required#/mustExist/optional/mightExist"))
        #expect(two.userCount == 2)
        #expect(two["optionalParam"] == "mightExist")

        let three = try #require(try harness.route("tests://required#/mustExist/optional/mightExist/moreOptional/mightExistToo"))
        #expect(three.userCount == 3)
        #expect(three["moreOptionalParam"] == "mightExistToo")
    }
}
