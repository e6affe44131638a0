/// The service of the cached-lookup probe: a singleton, as in ServiceBenchmarks' `Lookup.BeeHive@cached-singleton`.
protocol Greeter: AnyObject, Sendable {}
final class GreeterImpl: Greeter {}
