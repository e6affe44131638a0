/// How a dispatch calls one target. One type per hook lets the dispatch loop be specialized for it, with no
/// closure call per module.
protocol DispatchHook {
    associatedtype Target: AnyObject
    static func call(_ target: Target, _ context: ModuleContext) throws
}

enum WillTerminateHook: DispatchHook {
    static func call(_ target: ModuleEntry, _ context: ModuleContext) throws { try target.module.willTerminate(context) }
}

enum ReloadHook: DispatchHook {
    static func call(_ target: ModuleEntry, _ context: ModuleContext) throws { try target.module.reload(context) }
}

enum MemoryWarningHook: DispatchHook {
    static func call(_ target: ModuleEntry, _ context: ModuleContext) throws {
        try target.module.didReceiveMemoryWarning(context)
    }
}

enum UserSignalHook: DispatchHook {
    static func call(_ target: ModuleEntry, _ context: ModuleContext) throws { try target.module.didReceiveUserSignal(context) }
}

enum OpenURLHook: DispatchHook {
    static func call(_ target: ModuleEntry, _ context: ModuleContext) throws { try target.module.openURL(context) }
}

enum CustomEventHook: DispatchHook {
    static func call(_ target: CustomHandler, _ context: ModuleContext) throws { try target.run(context) }
}
