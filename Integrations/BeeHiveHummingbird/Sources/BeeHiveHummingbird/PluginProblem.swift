import Foundation
import Hummingbird

/// The 503 answer for a path whose plugin cannot serve it: an RFC 9457 problem body naming the plugin.
struct PluginProblem: Codable {
    var type = "about:blank"
    var title = "Plugin unavailable"
    var status = 503
    let path: String
    /// The plugin file, when known.
    let plugin: String?
    let detail: String

    var response: Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(self)) ?? Data()
        return Response(
            status: .serviceUnavailable, headers: [.contentType: "application/problem+json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
