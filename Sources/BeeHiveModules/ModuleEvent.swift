/// Any event a module can receive: what a context and a report name.
public enum ModuleEvent: Sendable, Hashable, CustomStringConvertible {
    case lifecycle(LifecycleEvent)
    case system(SystemEvent)
    case custom(CustomEvent)

    public static let setUp = ModuleEvent.lifecycle(.setUp)
    public static let initialize = ModuleEvent.lifecycle(.initialize)
    public static let splash = ModuleEvent.lifecycle(.splash)
    public static let tearDown = ModuleEvent.lifecycle(.tearDown)
    public static let unmount = ModuleEvent.lifecycle(.unmount)
    public static let willTerminate = ModuleEvent.system(.willTerminate)
    public static let reload = ModuleEvent.system(.reload)
    public static let didReceiveMemoryWarning = ModuleEvent.system(.didReceiveMemoryWarning)
    public static let userSignal1 = ModuleEvent.system(.userSignal1)
    public static let userSignal2 = ModuleEvent.system(.userSignal2)
    public static let openURL = ModuleEvent.system(.openURL)

    public var description: String {
        switch self {
        case .lifecycle(let event): event.rawValue
        case .system(let event): event.rawValue
        case .custom(let event): event.description
        }
    }
}
