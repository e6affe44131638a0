import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Logging
import Synchronization

// Services and implementations the tests register. Implementations named by annotations and configuration
// files are top-level classes, so that `_typeByName` finds them by their dotted name.

protocol HomeService: AnyObject, Sendable {
    var title: String { get }
}

protocol AccountService: Sendable {
    var user: String { get }
}

enum Outer {
    protocol NestedService {}
}

final class HomeServiceImpl: HomeService, SimpleServiceImplementation {
    let title = "home"
}

final class OtherHomeServiceImpl: HomeService, SimpleServiceImplementation {
    let title = "other home"
}

final class AccountServiceImpl: AccountService, SimpleServiceImplementation {
    let user = "ann"
}

struct StructAccountService: AccountService, SimpleServiceImplementation {
    let user = "struct"
}

/// Gets its dependency through the resolver (constructor injection) and its title from the arguments.
final class InjectedHomeService: HomeService, ServiceImplementation {
    let title: String
    let account: any AccountService

    init(resolver: ServiceResolver, arguments: ServiceArguments) throws {
        account = try resolver.resolve(AccountService.self)
        title = (try? arguments.argument("title", as: String.self)) ?? "injected for \(account.user)"
    }
}

/// Constructible, but implements no service.
final class UnrelatedImplementation: SimpleServiceImplementation {}

/// Implements HomeService, but the manager cannot create it.
final class PlainHomeService: HomeService {
    let title = "plain"
}

/// Needs AccountService, which the tests leave unregistered.
final class NeedsAccountHomeService: HomeService, ServiceImplementation {
    let title = "needs account"

    init(resolver: ServiceResolver, arguments: ServiceArguments) throws {
        _ = try resolver.resolve(AccountService.self)
    }
}

struct FactoryFailure: Error, CustomStringConvertible {
    var description: String { "the database is closed" }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = Atomic(0)

    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// A logger whose messages the test can read.
final class LogRecorder: Sendable {
    private let entries = Locked<[(level: Logger.Level, message: String)]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    func messages(at level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    fileprivate func record(_ level: Logger.Level, _ message: String) {
        entries.withLock { $0.append((level, message)) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        func log(event: LogEvent) {
            recorder.record(event.level, "\(event.message)")
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
    }
}

/// Records as the section reader would produce them, for `ServiceManager.apply(_:)`.
enum Records {
    static func service(
        _ protocolName: String, _ typeName: String, scope: ServiceScope = .transient, name: String? = nil,
        object: String = "/opt/app/libShop.so", offset: Int = 0
    ) -> AnnotationRecord {
        var text = "beehive:1|service|\(protocolName)|\(typeName)"
        if scope != .transient || name != nil { text += "|scope=\(scope.rawValue)|name=\(name ?? "")" }
        return AnnotationRecord(
            payload: .service(ServiceAnnotation(protocolName: protocolName, typeName: typeName, scope: scope, name: name)),
            text: text, origin: RecordOrigin(objectPath: object, section: SectionName.services, offset: offset))
    }

    static func update(added: [AnnotationRecord] = [], removed: [AnnotationRecord] = []) -> RegistryUpdate {
        var update = RegistryUpdate()
        update.added = added
        update.removed = removed
        return update
    }
}
