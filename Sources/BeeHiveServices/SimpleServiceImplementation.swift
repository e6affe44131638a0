/// A service implementation created with `init()`, like BeeHive's `[[implClass alloc] init]`.
///
/// A non-final class must declare `required init()`; a final class, struct or enum just needs `init()`.
public protocol SimpleServiceImplementation: ServiceImplementation {
    init()
}

extension SimpleServiceImplementation {
    public init(resolver: ServiceResolver, arguments: ServiceArguments) {
        self.init()
    }
}
