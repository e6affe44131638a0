/// Swift annotations for BeeHive: each macro stores the same record as its C counterpart in `beehive.h`, in the
/// same ELF section, so discovery, `readelf -p` and `beehive inspect` see Swift and C annotations alike.
///
/// The annotated type's name is recorded with its module, which the compiler supplies: a top-level class as
/// `Module.Class`, any other type (struct, enum, nested type) by its mangled name, the form the runtime
/// resolves. Generic, local and private types are refused at compile time.

/// Declares a module, like `BeeHiveModule(Module.Type, level, priority, sync|async)` in C, or with dependencies
/// like `BeeHiveModuleDepends(…, "Shop.NetworkModule")`: the module is set up after the modules it depends on,
/// which must be module types written `Type.self` (declared in the annotated type's module) or
/// `Module.Type.self` (another module's, or a nested type).
///
///
/// `onDemand: true` (`BeeHiveModuleOnDemand` in C) lets a plugin folder load the module's plugin on first use of
/// a service, route or target it declares instead of at launch, when every module of the plugin is on-demand;
/// the module then catches up on setUp, init and splash.
///
///     @BeeHiveModule(level: .basic, priority: 100, dependencies: [NetworkModule.self])
///     final class ShopModule { ... }
@attached(member, names: arbitrary)
public macro BeeHiveModule(
    level: BeeHiveModuleLevel = .normal, priority: Int = 0, async: Bool = false, dependencies: [Any.Type] = [],
    onDemand: Bool = false
) = #externalMacro(module: "BeeHiveMacros", type: "ModuleMacro")

/// Declares the annotated type as the implementation of a service protocol, like
/// `BeeHiveServiceScoped(Module.Protocol, Module.Type, scope, name)` in C. An unqualified protocol is taken to
/// be declared in the annotated type's module; write `Other.HomeService.self` for a protocol of module `Other`.
///
///     @BeeHiveService(HomeService.self, scope: .singleton)
///     struct HomeServiceImpl: HomeService { ... }
@attached(member, names: arbitrary)
public macro BeeHiveService<Service>(
    _ service: Service.Type, scope: BeeHiveServiceScope = .transient, name: String? = nil
) = #externalMacro(module: "BeeHiveMacros", type: "ServiceMacro")

/// Declares the annotated type as the handler of a URL pattern, like
/// `BeeHiveRouteScoped(pattern, Module.Type, scheme, priority)` in C. Without a scheme the route goes in the
/// global route table.
///
///     @BeeHiveRoute("/user/view/:id", scheme: "shop")
///     final class UserRouteHandler { ... }
@attached(member, names: arbitrary)
public macro BeeHiveRoute(_ pattern: String, scheme: String? = nil, priority: Int = 0) =
    #externalMacro(module: "BeeHiveMacros", type: "RouteMacro")

/// Declares the annotated type as a target for target-action calls, like `BeeHiveTarget(name, Module.Type)` in C.
@attached(member, names: arbitrary)
public macro BeeHiveTarget(_ name: String) = #externalMacro(module: "BeeHiveMacros", type: "TargetMacro")
