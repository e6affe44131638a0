/// A library with no annotations: discovery never opens it.
public enum Plain {
    public static let greeting = "plain"
}
