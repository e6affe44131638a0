/// The deployment environment the app runs in (BeeHive's `BHEnvironmentType`).
public enum ModuleEnvironment: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case dev, test, stage, prod

    /// The environment variable the manager reads when no environment is set in code.
    public static let variableName = "BEEHIVE_ENV"

    /// Reads `dev`, `test`, `stage`, `prod` and their long forms, in any case.
    package init(parsing text: String) throws(ModuleError) {
        switch text.lowercased() {
        case "dev", "development": self = .dev
        case "test", "testing": self = .test
        case "stage", "staging": self = .stage
        case "prod", "production": self = .prod
        default: throw .unknownEnvironment(text)
        }
    }

    /// The environment named by `variable` in `environment`, or nil when the variable is unset or empty.
    package static func fromVariable(
        _ variable: String = variableName, in environment: [String: String]
    ) throws(ModuleError) -> ModuleEnvironment? {
        guard let value = environment[variable], !value.isEmpty else { return nil }
        return try ModuleEnvironment(parsing: value)
    }

    public var description: String { rawValue }
}
