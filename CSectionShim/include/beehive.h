/*
 * BeeHive for Linux: annotations that place module, service, route and target records in ELF sections.
 *
 *   #include <beehive.h>
 *   BEEHIVE_MODULE(ShopApp.ShopModule, level(basic), priority(100))
 *   BeeHiveService(ShopApp.HomeService, ShopApp.HomeServiceImpl)
 *   BeeHiveRoute("/user/view/:id", ShopApp.UserRouteHandler)
 *
 * Each annotation is one NUL-terminated string, stored inline (never a pointer: under PIE a pointer on disk
 * is zero or unrelocated), so `readelf -p beehive_mods app` prints one readable line per annotation.
 * Record syntax, version 1, fields separated by '|':
 *   beehive:1|module|<Type>|level=<basic|normal>|priority=<int>|async=<0|1>[|depends=<Type>,<Type>...][|ondemand=<0|1>]
 *   beehive:1|service|<Protocol>|<Type>|scope=<transient|singleton|named|weak>|name=<name>
 *   beehive:1|route|<pattern>|<Type>|scheme=<scheme>|priority=<int>
 *   beehive:1|target|<name>|<Type>
 * Trailing attributes are optional in records; the extended macros always write them.
 */
#ifndef BEEHIVE_H
#define BEEHIVE_H

#if defined(__has_attribute)
#  if !__has_attribute(retain)
#    error "BeeHive annotations need __attribute__((retain)) (clang >= 13, gcc >= 11 with binutils >= 2.36): without it --gc-sections drops them from release builds"
#  endif
#endif

#define BEEHIVE_RECORD_VERSION "beehive:1"
#define BEEHIVE_SECTION_MODULES "beehive_mods"
#define BEEHIVE_SECTION_SERVICES "beehive_services"
#define BEEHIVE_SECTION_ROUTES "beehive_routes"
/* The module attribute that names the modules it depends on: depends=<Type>,<Type>... */
#define BEEHIVE_ATTRIBUTE_DEPENDS "depends"
/* The module attribute that lets a plugin folder load the module's plugin on first use instead of at launch:
   ondemand=1. The modules catch up on setUp, init and splash when their plugin loads. */
#define BEEHIVE_ATTRIBUTE_ON_DEMAND "ondemand"
/*
 * Written by the Swift macros only: 16-byte entries, each a 64-bit FNV-1a hash of a record's type name and a
 * function that returns that type as the existential metatype a manager asks for. Entries hold pointers, which
 * are relocated in memory only, so discovery reads this section from memory and never from a file.
 */
#define BEEHIVE_SECTION_TYPES "beehive_types"
#define BEEHIVE_TYPE_REFERENCE_SIZE 16

/*
 * The fingerprint of the public interface of the BeeHive these headers belong to: its Swift modules'
 * declarations and the layout of their public types. scripts/interface-fingerprint --update writes it, and
 * scripts/test fails when it is stale. Every annotated object carries the value it was built with in its note;
 * a host refuses a plugin that links libBeeHive.so and was built against another interface, before loading it.
 */
#define BEEHIVE_INTERFACE_FINGERPRINT 0x961e8fd97885faaf

/*
 * The note that marks an object as annotated, so discovery can skip every other object from memory.
 * Descriptor, version 4: the version, then for each record section (modules, services, routes) and then the
 * type-reference section the place-relative offsets (int32, from the offset's own address) of its __start_ and
 * __stop_ symbols, then the interface fingerprint (uint64). The object finds its own records from memory with
 * the offsets, without a section table or a file open. Each version appends to the one before, so a reader
 * takes what it knows from a later one. Version 3 has no fingerprint; version 2 has the record sections'
 * offsets only; version 1 (a lone version word) is what objects built before the offsets carry, and their
 * sections are found through the file.
 */
#define BEEHIVE_NOTE_NAME "BeeHive"
#define BEEHIVE_NOTE_NAME_SIZE 8 /* with its NUL */
#define BEEHIVE_NOTE_TYPE 0x42480001
#define BEEHIVE_NOTE_VERSION 4
#define BEEHIVE_NOTE_VERSION_WITHOUT_INTERFACE 3
#define BEEHIVE_NOTE_VERSION_WITHOUT_TYPES 2
#define BEEHIVE_NOTE_VERSION_WITHOUT_OFFSETS 1
/* The record sections; the note locates them and, from version 3 on, the type-reference section after them. */
#define BEEHIVE_NOTE_SECTION_COUNT 3
#define BEEHIVE_NOTE_INTERFACE_OFFSET (4 + 8 * (BEEHIVE_NOTE_SECTION_COUNT + 1))
#define BEEHIVE_NOTE_DESCRIPTOR_SIZE (BEEHIVE_NOTE_INTERFACE_OFFSET + 8)
#define BEEHIVE_NOTE_DESCRIPTOR_SIZE_WITHOUT_INTERFACE (4 + 8 * (BEEHIVE_NOTE_SECTION_COUNT + 1))
#define BEEHIVE_NOTE_DESCRIPTOR_SIZE_WITHOUT_TYPES (4 + 8 * BEEHIVE_NOTE_SECTION_COUNT)

/* Tokens accepted by the extended macros; a misspelt token fails to compile instead of failing at run time. */
enum { beehive_level_basic = 0, beehive_level_normal = 1 };
enum { beehive_scope_transient = 0, beehive_scope_singleton = 1, beehive_scope_named = 2, beehive_scope_weak = 3 };

#define BEEHIVE_STR2_(x) #x
#define BEEHIVE_STR_(x) BEEHIVE_STR2_(x)
#define BEEHIVE_CAT2_(a, b) a##b
#define BEEHIVE_CAT_(a, b) BEEHIVE_CAT2_(a, b)

#ifdef __cplusplus
#  define BEEHIVE_STATIC_ASSERT_(cond, msg) static_assert(cond, msg)
#else
#  define BEEHIVE_STATIC_ASSERT_(cond, msg) _Static_assert(cond, msg)
#endif

/*
 * One note per linked object: a COMDAT group keeps a single copy however many translation units annotate,
 * the assembler guard keeps a single copy per translation unit, and "R" (SHF_GNU_RETAIN) survives
 * --gc-sections in bfd, gold and lld. "%note" rather than "@note": '@' starts a comment on some targets.
 * The __start_/__stop_ symbols are weak and hidden, so each object resolves its own; the empty retained
 * contribution to each section makes the linker define them even where the object has no record of a kind.
 */
#define BEEHIVE_SECTION_BOUNDS_(name, flags) \
            ".pushsection " name ",\"" flags "\",%progbits\n" \
            ".popsection\n" \
            ".weak __start_" name ", __stop_" name "\n" \
            ".hidden __start_" name ", __stop_" name "\n"
#define BEEHIVE_SECTION_OFFSETS_(name) \
            ".long __start_" name " - .\n" \
            ".long __stop_" name " - .\n"
#define BEEHIVE_MARK_OBJECT_ \
    __asm__(".ifndef .Lbeehive_object_marked\n" \
            ".set .Lbeehive_object_marked, 1\n" \
            BEEHIVE_SECTION_BOUNDS_(BEEHIVE_SECTION_MODULES, "aR") \
            BEEHIVE_SECTION_BOUNDS_(BEEHIVE_SECTION_SERVICES, "aR") \
            BEEHIVE_SECTION_BOUNDS_(BEEHIVE_SECTION_ROUTES, "aR") \
            BEEHIVE_SECTION_BOUNDS_(BEEHIVE_SECTION_TYPES, "awR") \
            ".pushsection .note.beehive,\"aGR\",%note,beehive_object_mark,comdat\n" \
            ".balign 4\n" \
            ".long " BEEHIVE_STR_(BEEHIVE_NOTE_NAME_SIZE) "\n" \
            ".long " BEEHIVE_STR_(BEEHIVE_NOTE_DESCRIPTOR_SIZE) "\n" \
            ".long " BEEHIVE_STR_(BEEHIVE_NOTE_TYPE) "\n" \
            ".asciz \"" BEEHIVE_NOTE_NAME "\"\n" \
            ".long " BEEHIVE_STR_(BEEHIVE_NOTE_VERSION) "\n" \
            BEEHIVE_SECTION_OFFSETS_(BEEHIVE_SECTION_MODULES) \
            BEEHIVE_SECTION_OFFSETS_(BEEHIVE_SECTION_SERVICES) \
            BEEHIVE_SECTION_OFFSETS_(BEEHIVE_SECTION_ROUTES) \
            BEEHIVE_SECTION_OFFSETS_(BEEHIVE_SECTION_TYPES) \
            ".quad " BEEHIVE_STR_(BEEHIVE_INTERFACE_FINGERPRINT) "\n" \
            ".popsection\n" \
            ".endif\n");

/* BeeHiveMarkObject(): the note alone, for an object whose records come from elsewhere (Swift macros). */
#define BeeHiveMarkObject() BEEHIVE_MARK_OBJECT_

/*
 * '|' separates a record's fields, so an argument holding one (BeeHiveMod(App.Module|async=1)) would smuggle
 * in fields the macro's checks never saw: refused at compile time. __builtin_strchr on a literal folds to a
 * constant in clang and gcc (C and C++); in C that folding is an extension, hence the silenced warnings.
 */
#if defined(__clang__)
#  define BEEHIVE_FOLDING_BEGIN_ _Pragma("clang diagnostic push") \
    _Pragma("clang diagnostic ignored \"-Wgnu-folding-constant\"") _Pragma("clang diagnostic ignored \"-Wpedantic\"")
#  define BEEHIVE_FOLDING_END_ _Pragma("clang diagnostic pop")
#else
#  define BEEHIVE_FOLDING_BEGIN_ _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wpedantic\"")
#  define BEEHIVE_FOLDING_END_ _Pragma("GCC diagnostic pop")
#endif
#define BEEHIVE_NO_SEPARATOR_(text) \
    BEEHIVE_FOLDING_BEGIN_ \
    BEEHIVE_STATIC_ASSERT_(__builtin_strchr(text, '|') == 0, "'|' separates record fields; it cannot appear in " text); \
    BEEHIVE_FOLDING_END_

/* aligned(1) char arrays: no gaps between records whatever the compiler's alignment choices. */
#define BEEHIVE_RECORD_(section_name, text) \
    BEEHIVE_MARK_OBJECT_ \
    static const char BEEHIVE_CAT_(beehive_record_, __COUNTER__)[] \
        __attribute__((used, retain, section(section_name), aligned(1))) = text;

/*
 * BEEHIVE_MODULE(App.Module, attribute, ...): a module, with any of these attributes, in any order:
 *   level(basic|normal)   set up with the basic modules first, or with the others (normal, the default)
 *   priority(<int>)       earlier within its level when higher (0 by default)
 *   async                 init runs on a task of its own, awaited by the launch; sync (the default) says so
 *   depends("A.M,B.N")    set up after the modules named: type names separated by ',' without spaces
 *   on_demand             a plugin folder loads the module's plugin on first use of something it declares (a
 *                         service, route or target) rather than at launch, if every module of the plugin is
 *                         on-demand; the module then catches up on setUp, init and splash
 *
 *   BEEHIVE_MODULE(Shop.CartModule)
 *   BEEHIVE_MODULE(Shop.CheckoutModule, level(basic), priority(100), async, depends("Shop.CartModule"))
 *
 * An unknown or misspelt attribute, an attribute given twice and a bad value fail to compile. Without
 * attributes the record is the short form; with any, it has level, priority and async, then depends and
 * ondemand when given. The parts of the type name are macro-expanded, as any argument of a variadic macro is
 * (a module named like a predefined macro, linux or unix in GNU C, would change): the aliases below are not.
 */
#define BEEHIVE_MODULE(...) BEEHIVE_MODULE_STRING_(BEEHIVE_STR_(BEEHIVE_FIRST_(__VA_ARGS__)), __VA_ARGS__)

/* The aliases, kept for existing annotations; each writes the same bytes as the BEEHIVE_MODULE it names. */
/* BeeHiveMod(App.Module) is BEEHIVE_MODULE(App.Module) (BeeHive's own macro). */
#define BeeHiveMod(type) BEEHIVE_MODULE_STRING_(#type, type)
/* BeeHiveModule(App.Module, basic|normal, priority, sync|async) */
#define BeeHiveModule(type, lv, prio, init) BEEHIVE_MODULE_STRING_(#type, type, level(lv), priority(prio), init)
/* BeeHiveModuleDepends(App.Module, basic|normal, priority, sync|async, "App.Network,App.Account") */
#define BeeHiveModuleDepends(type, lv, prio, init, deps) \
    BEEHIVE_MODULE_STRING_(#type, type, level(lv), priority(prio), init, depends(deps))
/* BeeHiveModuleOnDemand(App.Module, basic|normal, priority, sync|async) */
#define BeeHiveModuleOnDemand(type, lv, prio, init) \
    BEEHIVE_MODULE_STRING_(#type, type, level(lv), priority(prio), init, on_demand)
/* BeeHiveModuleOnDemandDepends(App.Module, basic|normal, priority, sync|async, "App.Network") */
#define BeeHiveModuleOnDemandDepends(type, lv, prio, init, deps) \
    BEEHIVE_MODULE_STRING_(#type, type, level(lv), priority(prio), init, depends(deps), on_demand)

/* The type name as a string, then the type and the attributes: 1 argument after the name is the short form. */
#define BEEHIVE_MODULE_STRING_(name, ...) \
    BEEHIVE_CAT_(BEEHIVE_MODULE_WITH_, BEEHIVE_HAS_MORE_(__VA_ARGS__))(name, __VA_ARGS__)
#define BEEHIVE_MODULE_WITH_0(name, type) \
    BEEHIVE_NO_SEPARATOR_(name) \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_MODULES, BEEHIVE_RECORD_VERSION "|module|" name)
#define BEEHIVE_MODULE_WITH_1(name, type, ...) \
    BEEHIVE_NO_SEPARATOR_(name) \
    BEEHIVE_EACH_(BEEHIVE_MODULE_CHECK_, __VA_ARGS__) \
    struct BEEHIVE_CAT_(beehive_module_attributes_, __COUNTER__) { BEEHIVE_EACH_(BEEHIVE_MODULE_MEMBER_, __VA_ARGS__) }; \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_MODULES, BEEHIVE_RECORD_VERSION "|module|" name \
        "|level=" BEEHIVE_STR_(BEEHIVE_FIRST_(BEEHIVE_EACH_(BEEHIVE_MODULE_LEVEL_, __VA_ARGS__) normal)) \
        "|priority=" BEEHIVE_STR_(BEEHIVE_FIRST_(BEEHIVE_EACH_(BEEHIVE_MODULE_PRIORITY_, __VA_ARGS__) 0)) \
        "|async=" BEEHIVE_FIRST_(BEEHIVE_EACH_(BEEHIVE_MODULE_ASYNC_, __VA_ARGS__) "0") \
        BEEHIVE_EACH_(BEEHIVE_MODULE_DEPENDS_, __VA_ARGS__) \
        BEEHIVE_EACH_(BEEHIVE_MODULE_ON_DEMAND_, __VA_ARGS__))

/*
 * One table per use of an attribute: each attribute is pasted behind the table's prefix, so one that no table
 * knows leaves an undeclared name behind, which does not compile. Level, priority and async give their value
 * followed by a comma, and BEEHIVE_FIRST_ takes the first of them or the default written after them. MEMBER
 * declares one struct member per attribute: an attribute given twice (or sync with async) is a duplicate member.
 */
#define BEEHIVE_MODULE_CHECK_(attribute) BEEHIVE_MODULE_CHECK_##attribute
#define BEEHIVE_MODULE_CHECK_level(value) \
    BEEHIVE_STATIC_ASSERT_(beehive_level_##value >= 0, "level is basic or normal");
#define BEEHIVE_MODULE_CHECK_priority(value) \
    BEEHIVE_NO_SEPARATOR_(#value) BEEHIVE_STATIC_ASSERT_((value) == (value), "priority is an integer constant");
#define BEEHIVE_MODULE_CHECK_sync
#define BEEHIVE_MODULE_CHECK_async
#define BEEHIVE_MODULE_CHECK_depends(modules) BEEHIVE_NO_SEPARATOR_(modules)
#define BEEHIVE_MODULE_CHECK_on_demand

#define BEEHIVE_MODULE_MEMBER_(attribute) BEEHIVE_MODULE_MEMBER_##attribute
#define BEEHIVE_MODULE_MEMBER_level(value) char level;
#define BEEHIVE_MODULE_MEMBER_priority(value) char priority;
#define BEEHIVE_MODULE_MEMBER_sync char sync_or_async;
#define BEEHIVE_MODULE_MEMBER_async char sync_or_async;
#define BEEHIVE_MODULE_MEMBER_depends(modules) char depends;
#define BEEHIVE_MODULE_MEMBER_on_demand char on_demand;

#define BEEHIVE_MODULE_LEVEL_(attribute) BEEHIVE_MODULE_LEVEL_##attribute
#define BEEHIVE_MODULE_LEVEL_level(value) value,
#define BEEHIVE_MODULE_LEVEL_priority(value)
#define BEEHIVE_MODULE_LEVEL_sync
#define BEEHIVE_MODULE_LEVEL_async
#define BEEHIVE_MODULE_LEVEL_depends(modules)
#define BEEHIVE_MODULE_LEVEL_on_demand

#define BEEHIVE_MODULE_PRIORITY_(attribute) BEEHIVE_MODULE_PRIORITY_##attribute
#define BEEHIVE_MODULE_PRIORITY_level(value)
#define BEEHIVE_MODULE_PRIORITY_priority(value) value,
#define BEEHIVE_MODULE_PRIORITY_sync
#define BEEHIVE_MODULE_PRIORITY_async
#define BEEHIVE_MODULE_PRIORITY_depends(modules)
#define BEEHIVE_MODULE_PRIORITY_on_demand

#define BEEHIVE_MODULE_ASYNC_(attribute) BEEHIVE_MODULE_ASYNC_##attribute
#define BEEHIVE_MODULE_ASYNC_level(value)
#define BEEHIVE_MODULE_ASYNC_priority(value)
#define BEEHIVE_MODULE_ASYNC_sync "0",
#define BEEHIVE_MODULE_ASYNC_async "1",
#define BEEHIVE_MODULE_ASYNC_depends(modules)
#define BEEHIVE_MODULE_ASYNC_on_demand

#define BEEHIVE_MODULE_DEPENDS_(attribute) BEEHIVE_MODULE_DEPENDS_##attribute
#define BEEHIVE_MODULE_DEPENDS_level(value)
#define BEEHIVE_MODULE_DEPENDS_priority(value)
#define BEEHIVE_MODULE_DEPENDS_sync
#define BEEHIVE_MODULE_DEPENDS_async
#define BEEHIVE_MODULE_DEPENDS_depends(modules) "|" BEEHIVE_ATTRIBUTE_DEPENDS "=" modules
#define BEEHIVE_MODULE_DEPENDS_on_demand

#define BEEHIVE_MODULE_ON_DEMAND_(attribute) BEEHIVE_MODULE_ON_DEMAND_##attribute
#define BEEHIVE_MODULE_ON_DEMAND_level(value)
#define BEEHIVE_MODULE_ON_DEMAND_priority(value)
#define BEEHIVE_MODULE_ON_DEMAND_sync
#define BEEHIVE_MODULE_ON_DEMAND_async
#define BEEHIVE_MODULE_ON_DEMAND_depends(modules)
#define BEEHIVE_MODULE_ON_DEMAND_on_demand "|" BEEHIVE_ATTRIBUTE_ON_DEMAND "=1"

/* The first argument, and whether more follow (up to 8 in all): C11 wants at least one argument for '...'. */
#define BEEHIVE_FIRST_(...) BEEHIVE_FIRST2_(__VA_ARGS__, ~)
#define BEEHIVE_FIRST2_(first, ...) first
#define BEEHIVE_HAS_MORE_(...) BEEHIVE_NINTH_(__VA_ARGS__, 1, 1, 1, 1, 1, 1, 1, 0, ~)
#define BEEHIVE_COUNT_(...) BEEHIVE_NINTH_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define BEEHIVE_NINTH_(a1, a2, a3, a4, a5, a6, a7, a8, a9, ...) a9
/* macro(argument) for each argument, 1 to 8 of them. */
#define BEEHIVE_EACH_(macro, ...) BEEHIVE_CAT_(BEEHIVE_EACH_, BEEHIVE_COUNT_(__VA_ARGS__))(macro, __VA_ARGS__)
#define BEEHIVE_EACH_1(m, a) m(a)
#define BEEHIVE_EACH_2(m, a, ...) m(a) BEEHIVE_EACH_1(m, __VA_ARGS__)
#define BEEHIVE_EACH_3(m, a, ...) m(a) BEEHIVE_EACH_2(m, __VA_ARGS__)
#define BEEHIVE_EACH_4(m, a, ...) m(a) BEEHIVE_EACH_3(m, __VA_ARGS__)
#define BEEHIVE_EACH_5(m, a, ...) m(a) BEEHIVE_EACH_4(m, __VA_ARGS__)
#define BEEHIVE_EACH_6(m, a, ...) m(a) BEEHIVE_EACH_5(m, __VA_ARGS__)
#define BEEHIVE_EACH_7(m, a, ...) m(a) BEEHIVE_EACH_6(m, __VA_ARGS__)
#define BEEHIVE_EACH_8(m, a, ...) m(a) BEEHIVE_EACH_7(m, __VA_ARGS__)

/* BeeHiveService(App.Protocol, App.Implementation): a new instance per lookup. */
#define BeeHiveService(protocol, type) \
    BEEHIVE_NO_SEPARATOR_(#protocol) BEEHIVE_NO_SEPARATOR_(#type) \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_SERVICES, BEEHIVE_RECORD_VERSION "|service|" #protocol "|" #type)

/* BeeHiveServiceScoped(App.Protocol, App.Implementation, transient|singleton|named|weak, "name" or "") */
#define BeeHiveServiceScoped(protocol, type, scope, name) \
    BEEHIVE_NO_SEPARATOR_(#protocol) BEEHIVE_NO_SEPARATOR_(#type) BEEHIVE_NO_SEPARATOR_(name) \
    BEEHIVE_STATIC_ASSERT_(beehive_scope_##scope >= 0, "scope is transient, singleton, named or weak"); \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_SERVICES, BEEHIVE_RECORD_VERSION "|service|" #protocol "|" #type \
        "|scope=" #scope "|name=" name)

/* BeeHiveRoute("/user/view/:id", App.Handler): a handler type instantiated per match, global scheme. */
#define BeeHiveRoute(pattern, type) \
    BEEHIVE_NO_SEPARATOR_(pattern) BEEHIVE_NO_SEPARATOR_(#type) \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_ROUTES, BEEHIVE_RECORD_VERSION "|route|" pattern "|" #type)

/* BeeHiveRouteScoped("/user/view/:id", App.Handler, "scheme" or "", priority) */
#define BeeHiveRouteScoped(pattern, type, scheme, priority) \
    BEEHIVE_NO_SEPARATOR_(pattern) BEEHIVE_NO_SEPARATOR_(#type) BEEHIVE_NO_SEPARATOR_(scheme) \
    BEEHIVE_NO_SEPARATOR_(#priority) \
    BEEHIVE_STATIC_ASSERT_((priority) == (priority), "priority is an integer constant"); \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_ROUTES, BEEHIVE_RECORD_VERSION "|route|" pattern "|" #type \
        "|scheme=" scheme "|priority=" #priority)

/* BeeHiveTarget(name, App.Target): a target-action target for the mediator. */
#define BeeHiveTarget(name, type) \
    BEEHIVE_NO_SEPARATOR_(#name) BEEHIVE_NO_SEPARATOR_(#type) \
    BEEHIVE_RECORD_(BEEHIVE_SECTION_ROUTES, BEEHIVE_RECORD_VERSION "|target|" #name "|" #type)

#endif
