/// What handles a route, put into words only when a descriptor's `handler` is read: naming a type demangles it,
/// which registering a route in code should not pay for a listing nobody may ask for.
enum RouteHandlerName: Sendable {
    /// A closure, which has no type name.
    case closure
    /// A ``RouteHandler`` type, instantiated for every match.
    case handlerType(any Any.Type)
    /// The `Decodable` type a typed handler receives.
    case decodedType(any Any.Type)
    /// A name as written, such as an annotation record's.
    case written(String)

    var description: String {
        switch self {
        case .closure: RouteDescriptor.closureHandler
        case .handlerType(let type): _typeName(type, qualified: true)
        case .decodedType(let type): "\(_typeName(type, qualified: true)) (typed)"
        case .written(let name): name
        }
    }
}
