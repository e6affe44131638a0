import Foundation
import Testing

/// Real HTTP over loopback to the fixture host (Fixtures/HTTPHost) in a child process: linked modules, a
/// deferred plugin from the host's plugins folder, a plugin that cannot load, and a graceful shutdown.
@Suite(.timeLimit(.minutes(2)))
struct HTTPServingTests {
    @Test func linkedModulesServeTheirRoutesUnderTheirPaths() async throws {
        let host = try await HTTPHostProcess(plugins: [])
        #expect(try await host.request("/catalog/items").body == "apple,pear")
        #expect(try await host.request("/orders").body == "no orders")
        // From a service of the hive, through `Injected` in the handler.
        #expect(try await host.request("/catalog/price/pear").body == "4")
        #expect(try await host.request("/catalog/price/plum").status == 404)
        #expect(try await host.request("/nowhere").status == 404)
        // Modules were set up and initialized before the server accepted the first connection.
        let events = host.events
        let listening = try #require(host.lines.firstIndex { $0.hasPrefix("listening ") })
        let initialized = try #require(host.lines.firstIndex(of: "event init CatalogModule"))
        #expect(initialized < listening, "\(events)")
    }

    @Test func aDeferredPluginLoadsOnTheFirstRequestToItsPath() async throws {
        let host = try await HTTPHostProcess(plugins: ["libGreeter.so"])
        // Known from its records, which claim GET: HEAD and OPTIONS answer without loading it, other methods
        // 405, and other paths are not its.
        #expect(try await host.request("/greeter/hello", method: "HEAD").status == 204)
        let options = try await host.request("/greeter/hello", method: "OPTIONS")
        #expect(options.status == 204)
        #expect(options.allow == "GET, HEAD, OPTIONS")
        for method in ["POST", "DELETE", "PUT"] {
            let refused = try await host.request("/greeter/hello", method: method)
            #expect(refused.status == 405, "\(method)")
            #expect(refused.allow == "GET, HEAD, OPTIONS", "\(method)")
        }
        #expect(try await host.request("/greeting").status == 404)
        #expect(try await host.request("/host/plugins").body == "")
        #expect(!host.events.contains("setUp Greeter.GreeterModule"))

        let answer = try await host.request("/greeter/hello?name=bee")
        #expect(answer.status == 200)
        #expect(answer.body == "hello bee from the greeter plugin")
        #expect(host.events.contains("setUp Greeter.GreeterModule"))
        #expect(try await host.request("/host/plugins").body == host.plugins.appending(path: "libGreeter.so").path)
        // The plugin's handlers are built from the host's Hummingbird types, not a copy of their own.
        #expect(try await host.request("/greeter/types").body == (try await host.request("/host/types").body))
        #expect(try await host.request("/greeter/missing").status == 404)
        #expect(try await host.request("/catalog/items").body == "apple,pear")
    }

    @Test func sixtyFourConcurrentFirstRequestsLoadThePluginOnce() async throws {
        let host = try await HTTPHostProcess(plugins: ["libGreeter.so"])
        let answers = try await withThrowingTaskGroup(of: (Int, HTTPHostProcess.Answer).self) { group in
            for index in 0..<64 {
                group.addTask { (index, try await host.request("/greeter/hello?name=n\(index)")) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 64)
        for (index, answer) in answers {
            #expect(answer.status == 200)
            #expect(answer.body == "hello n\(index) from the greeter plugin")
        }
        #expect(host.events.filter { $0 == "setUp Greeter.GreeterModule" }.count == 1)
        #expect(try await host.request("/host/plugins").body.split(separator: "\n").count == 1)
    }

    @Test func aPluginThatCannotLoadAnswers503AndTheRestKeepsServing() async throws {
        let host = try await HTTPHostProcess(plugins: ["libBroken.so", "libGreeter.so"])
        // Its claim names no method: OPTIONS answers without an Allow list, and any other method loads it.
        let options = try await host.request("/broken/thing", method: "OPTIONS")
        #expect(options.status == 204)
        #expect(options.allow == nil)
        for method in ["GET", "POST"] {
            let answer = try await host.request("/broken/thing", method: method)
            #expect(answer.status == 503)
            #expect(answer.contentType == "application/problem+json")
            let problem = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            #expect(problem?["status"] as? Int == 503)
            #expect(problem?["plugin"] as? String == host.plugins.appending(path: "libBroken.so").path)
            #expect((problem?["detail"] as? String)?.contains("libgone.so") == true, "\(answer.body)")
        }
        #expect(try await host.request("/greeter/hello").body == "hello world from the greeter plugin")
        #expect(try await host.request("/catalog/items").body == "apple,pear")
    }

    @Test func aPluginWithItsOwnCopyOfHummingbirdIsRefusedBeforeItLoads() async throws {
        let host = try await HTTPHostProcess(plugins: ["libForeignGreeter.so", "libGreeter.so"])
        let answer = try await host.request("/foreign/hello")
        #expect(answer.status == 503)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        #expect(problem?["plugin"] as? String == host.plugins.appending(path: "libForeignGreeter.so").path)
        let detail = try #require(problem?["detail"] as? String, "\(answer.body)")
        #expect(detail.contains("its own copy of the Swift modules") && detail.contains(" Hummingbird,"), "\(detail)")
        #expect(detail.contains("which this process already has from ") && detail.contains("/libBeeHiveHummingbird.so"), "\(detail)")
        #expect(!host.events.contains { $0.contains("ForeignGreeter") })
        #expect(try await host.request("/greeter/hello").body == "hello world from the greeter plugin")
        #expect(try await host.request("/catalog/items").body == "apple,pear")
    }

    @Test func sigtermFinishesRequestsInFlightThenTearsModulesDownInReverseOrder() async throws {
        let host = try await HTTPHostProcess(plugins: [])
        let slow = Task { try await host.request("/catalog/slow?ms=1500") }
        try await host.waitForEvent("slow started")
        let status = try await host.terminate()
        let answer = try await slow.value
        #expect(answer.status == 200)
        #expect(answer.body == "done")
        #expect(status == 0)
        let events = host.events
        let finished = try #require(events.firstIndex(of: "slow finished"), "\(events)")
        let willTerminate = try #require(events.firstIndex(of: "willTerminate CatalogModule"), "\(events)")
        let ordersDown = try #require(events.firstIndex(of: "tearDown OrdersModule"), "\(events)")
        let catalogDown = try #require(events.firstIndex(of: "tearDown CatalogModule"), "\(events)")
        #expect(finished < willTerminate, "\(events)")
        #expect(ordersDown < catalogDown, "\(events)")
        #expect(events.last == "exit", "\(events)")
    }

    @Test func aPluginAddedWhileServingIsServedAfterARescanWithoutDroppingARequest() async throws {
        let host = try await HTTPHostProcess(plugins: [])
        #expect(try await host.request("/greeter/hello").status == 404)
        // Requests keep arriving while the plugin is added and loaded.
        let traffic = Task {
            var statuses: [Int] = []
            for _ in 0..<40 {
                statuses.append(try await host.request("/catalog/items").status)
            }
            return statuses
        }
        try HTTPHostProcess.install("libGreeter.so", into: host.plugins)
        #expect(try await host.request("/greeter/hello").status == 404)
        let rescan = try await host.request("/host/rescan", method: "POST")
        #expect(rescan.body == host.plugins.appending(path: "libGreeter.so").path)
        #expect(try await host.request("/greeter/hello").body == "hello world from the greeter plugin")
        #expect(try await traffic.value == Array(repeating: 200, count: 40))
        // Nothing new: a second rescan loads nothing.
        #expect(try await host.request("/host/rescan", method: "POST").body == "")
    }

    @Test func sighupRescansThePluginFolders() async throws {
        let host = try await HTTPHostProcess(plugins: [])
        try HTTPHostProcess.install("libGreeter.so", into: host.plugins)
        host.signal(SIGHUP)
        try await host.waitForEvent("setUp Greeter.GreeterModule")
        #expect(try await host.request("/greeter/hello").body == "hello world from the greeter plugin")
        #expect(try await host.request("/catalog/items").body == "apple,pear")
    }
}

@Suite(.timeLimit(.minutes(1)))
struct HTTPTracingTests {
    @Test func theRequestSpanIsTheParentOfSpansModulesMakeWhileHandlingIt() async throws {
        let host = try await HTTPHostProcess(plugins: [])
        #expect(try await host.request("/catalog/traced").body == "traced")
        let spans = try await host.request("/host/spans").body.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        let lookup = try #require(spans.first { $0[0] == "catalog.lookup" }, "\(spans)")
        let request = try #require(spans.first { $0[1] == lookup[2] }, "the lookup's parent is not among \(spans)")
        #expect(request[2] == "-", "the request's span is a root span: \(spans)")
        #expect(request[0] != "catalog.lookup")
    }
}
