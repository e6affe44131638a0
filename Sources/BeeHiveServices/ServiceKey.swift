/// What a lookup asks for: a service type's name and, optionally, a service name.
struct ServiceKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    let service: String
    let name: String?

    var description: String { name.map { "\(service) named \"\($0)\"" } ?? service }

    static func < (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        (lhs.service, lhs.name ?? "") < (rhs.service, rhs.name ?? "")
    }
}
