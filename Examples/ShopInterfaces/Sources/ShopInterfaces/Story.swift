import Foundation

/// What the demo prints on standard output: one line per thing a module or the app does, so that a reader
/// can follow the modules' lifecycle, services, routes and events. (Diagnostics go to the log, on stderr.)
///
/// Each line is one unbuffered write, so lines told on different threads never mix, and they keep their
/// order with the log's lines when both go to one terminal or file.
public enum Story {
    /// A line told by a module: `[Cart] setUp: ...`.
    public static func tell(_ teller: String, _ text: String) {
        note("[\(teller)] \(text)")
    }

    /// A section heading.
    public static func chapter(_ title: String) {
        note("\n== \(title)")
    }

    /// A line told by the app itself.
    public static func note(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }
}
