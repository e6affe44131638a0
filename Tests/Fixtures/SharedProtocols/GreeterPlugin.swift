// A plugin whose type conforms to the shared library's protocol; compat_greet answers through the conformance.
import Glibc
import Shared

final class Hello: Greeting {
    func greet() -> String { "hello" }
}

@_cdecl("compat_greet")
public func compatGreet() -> UnsafeMutablePointer<CChar>? {
    let greeting: any Greeting = Hello()
    return strdup(greeting.greet())
}
