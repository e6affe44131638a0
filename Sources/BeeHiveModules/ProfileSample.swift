/// The time one module spent in one event.
public struct ProfileSample: Sendable, Hashable {
    public let module: String
    public let event: ModuleEvent
    /// When the hook started, from the profiler's creation.
    public let start: Duration
    public let duration: Duration
    /// The kernel thread id the hook ran on: asynchronous inits show on their own threads.
    public let thread: Int

    package init(module: String, event: ModuleEvent, start: Duration, duration: Duration, thread: Int) {
        self.module = module
        self.event = event
        self.start = start
        self.duration = duration
        self.thread = thread
    }
}
