@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Something the manager reports without refusing: duplicates, unresolvable records, failing or blocking
/// hooks. Every diagnostic is also logged.
public struct ModuleDiagnostic: Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case warning, error
    }

    public enum Kind: Sendable {
        /// The module was registered again; the first registration is kept.
        case duplicateRegistration(module: String, first: ModuleSource, ignored: ModuleSource)
        /// An annotation record whose module could not be registered.
        case rejectedRecord(ModuleError)
        case hookFailed(HookFailure)
        case hookBlocked(WatchdogReport)
        /// An annotated module that arrived after start before its dependency; it is registered when the
        /// dependency is (a plugin loaded later, say).
        case waitingForDependency(module: String, dependency: String, source: ModuleSource)
        /// The module was unregistered while others still name it as a dependency.
        case dependencyRemoved(module: String, dependents: [String])
        /// The environment variable holds no known environment; `dev` is used.
        case invalidEnvironment(variable: String, value: String)
        /// A module configuration file has a top-level key this reader does not know; it is ignored.
        case unknownConfigurationKey(path: String, key: String)
    }

    public let kind: Kind

    package init(_ kind: Kind) {
        self.kind = kind
    }

    public var severity: Severity {
        switch kind {
        case .rejectedRecord, .hookFailed: .error
        case .duplicateRegistration, .hookBlocked, .dependencyRemoved, .invalidEnvironment, .unknownConfigurationKey,
            .waitingForDependency: .warning
        }
    }

    public var description: String {
        switch kind {
        case .duplicateRegistration(let module, let first, let ignored):
            "module \(module) is registered again from \(ignored); kept the registration from \(first)"
        case .rejectedRecord(let error): error.description
        case .hookFailed(let failure): failure.description
        case .hookBlocked(let report): report.description
        case .waitingForDependency(let module, let dependency, let source):
            "module \(module) from \(source) depends on \(dependency), which is not registered; it will be registered when \(dependency) is"
        case .dependencyRemoved(let module, let dependents):
            "module \(module) was unregistered but \(dependents.joined(separator: ", ")) depend on it"
        case .invalidEnvironment(let variable, let value):
            "\(variable)='\(value)' is not an environment (dev, test, stage, prod); using dev"
        case .unknownConfigurationKey(let path, let key):
            "\(path): unknown top-level key '\(key)' ignored (a module list has 'moduleClasses' only; misspelt?)"
        }
    }
}
