import Foundation
import Instrumentation
import ServiceContextModule
import Synchronization
import Tracing

/// A tracer that keeps every ended span's name, id and parent id, so that the tests can check which span is
/// whose parent. It is bootstrapped into the copy of swift-distributed-tracing inside libBeeHiveHummingbird.so,
/// the one Hummingbird's TracingMiddleware uses.
final class RecordingTracer: Tracer {
    struct Ended: Sendable {
        let name: String
        let id: Int
        let parent: Int?
    }

    private let nextID = Atomic(1)
    let ended = Mutex<[Ended]>([])

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> RecordedSpan {
        var spanContext = context()
        let parent = spanContext.spanID
        let id = nextID.add(1, ordering: .relaxed).oldValue
        spanContext.spanID = id
        return RecordedSpan(name: operationName, id: id, parent: parent, context: spanContext, tracer: self)
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {}
}

final class RecordedSpan: Span {
    let id: Int
    let parent: Int?
    let context: ServiceContext
    private let tracer: RecordingTracer
    private let name: Mutex<String>
    private let storedAttributes = Mutex(SpanAttributes())

    init(name: String, id: Int, parent: Int?, context: ServiceContext, tracer: RecordingTracer) {
        self.name = Mutex(name)
        self.id = id
        self.parent = parent
        self.context = context
        self.tracer = tracer
    }

    var operationName: String {
        get { name.withLock { $0 } }
        set { name.withLock { $0 = newValue } }
    }

    var attributes: SpanAttributes {
        get { storedAttributes.withLock { $0 } }
        set { storedAttributes.withLock { $0 = newValue } }
    }

    var isRecording: Bool { true }

    func setStatus(_ status: SpanStatus) {}
    func addEvent(_ event: SpanEvent) {}
    func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {}
    func addLink(_ link: SpanLink) {}

    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let ended = RecordingTracer.Ended(name: operationName, id: id, parent: parent)
        tracer.ended.withLock { $0.append(ended) }
    }
}

private enum SpanIDKey: ServiceContextKey {
    typealias Value = Int
}

extension ServiceContext {
    fileprivate var spanID: Int? {
        get { self[SpanIDKey.self] }
        set { self[SpanIDKey.self] = newValue }
    }
}
