#!/usr/bin/env python3
"""Writes the generated app of issue 11's start-up benchmark: one Swift package with four executables that
register the same 200 modules, 200 services and 200 route handlers in four ways, so that whole-process times
compare registration styles and nothing else.

  Code     registers every type in code (ModuleManager.register, ServiceManager.register, Router.addRoute)
  Macros   annotates every type with the Swift macros (@BeeHiveModule, @BeeHiveService, @BeeHiveRoute)
  C        annotates every type with the C macros, in one C target linked into the executable
  C20      spreads the types and their C annotations over 20 shared libraries the executable links

Each executable starts the host (setUp, init and splash of every module), resolves one service and routes one
URL, stops the host (tearDown) and exits. Usage: generate.py OUTPUT_DIR BEEHIVE_PACKAGE_DIR [COUNT]
"""
import os
import sys

out, beehive = sys.argv[1], os.path.abspath(sys.argv[2])
count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
libraries = 20
per_library = count // libraries


def write(path, text):
    path = os.path.join(out, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path).read() == text:
        return  # unchanged files keep the build incremental
    with open(path, "w") as f:
        f.write(text)


def types(indices, style, public=False):
    """The Swift types for `indices`; `style` adds the Swift macro annotations."""
    access = "public " if public else ""
    lines = ["import BeeHive"]
    if style == "macros":
        lines.append("import BeeHiveAnnotations")
    for i in indices:
        module_attr = "@BeeHiveModule(priority: %d)\n" % (i % 7) if style == "macros" else ""
        service_attr = "@BeeHiveService(Service%d.self)\n" % i if style == "macros" else ""
        route_attr = '@BeeHiveRoute("/item%d/:id")\n' % i if style == "macros" else ""
        lines.append(f"""
{module_attr}{access}final class Module{i}: Module {{
    {access}init() {{}}
    {access}func setUp(_ context: ModuleContext) throws {{}}
}}
{access}protocol Service{i}: AnyObject {{ func value() -> Int }}
{service_attr}{access}final class Service{i}Impl: Service{i}, SimpleServiceImplementation {{
    {access}init() {{}}
    {access}func value() -> Int {{ {i} }}
}}
{route_attr}{access}final class Handler{i}: RouteHandler {{
    {access}init() {{}}
    {access}func handle(_ parameters: RouteParameters) -> Bool {{ parameters["id"] != nil }}
}}""")
    return "\n".join(lines) + "\n"


def c_annotations(module, indices):
    lines = ["#include <beehive.h>", ""]
    for i in indices:
        lines.append(f"BeeHiveModule({module}.Module{i}, normal, {i % 7}, sync)")
        lines.append(f"BeeHiveService({module}.Service{i}, {module}.Service{i}Impl)")
        lines.append(f'BeeHiveRoute("/item{i}/:id", {module}.Handler{i})')
    return "\n".join(lines) + "\n"


def main_swift(registrations, probe_module=""):
    use = f"{probe_module}." if probe_module else ""
    return f"""import BeeHive
{"import " + probe_module if probe_module else ""}

let hive = Hive.shared
{registrations}
let host = HiveHost()
try await host.start()
guard hive.services.createService({use}Service0.self)?.value() == 0 else {{ fatalError("service missing") }}
guard try hive.open("/item{count - 1}/7").isHandled else {{ fatalError("route missing") }}
try host.stop()
"""


code_registrations = "\n".join(
    f"hive.modules.register(Module{i}.self, priority: {i % 7})\n"
    f"try hive.services.register(Service{i}.self, implementation: Service{i}Impl.self)\n"
    f'try hive.router.addRoute("/item{i}/:id", handlerType: Handler{i}.self)'
    for i in range(count))

everything = range(count)
write("Sources/Code/Types.swift", types(everything, "code"))
write("Sources/Code/main.swift", main_swift(code_registrations))
write("Sources/Macros/Types.swift", types(everything, "macros"))
write("Sources/Macros/main.swift", main_swift(""))
write("Sources/C/Types.swift", types(everything, "c"))
write("Sources/C/main.swift", main_swift(""))
write("Sources/CAnnotations/annotations.c", c_annotations("C", everything))
write("Sources/CAnnotations/include/c_annotations.h", "/* Annotations only. */\n")
library_targets = []
for n in range(libraries):
    indices = range(n * per_library, (n + 1) * per_library)
    write(f"Sources/Lib{n}/Types.swift", types(indices, "c", public=True))
    write(f"Sources/Lib{n}Annotations/annotations.c", c_annotations(f"Lib{n}", indices))
    write(f"Sources/Lib{n}Annotations/include/lib{n}_annotations.h", "/* Annotations only. */\n")
    library_targets.append(n)
imports = "\n".join(f"import Lib{n}" for n in library_targets)
write("Sources/C20/main.swift", imports + "\n" + main_swift("", probe_module="Lib0").replace("import BeeHive\nimport Lib0\n", "import BeeHive\n"))

beehive_name = os.path.basename(beehive)
products = "\n".join(
    f'        .library(name: "Lib{n}", type: .dynamic, targets: ["Lib{n}", "Lib{n}Annotations"]),' for n in library_targets)
library_decls = "\n".join(
    f'        .target(name: "Lib{n}Annotations", dependencies: [beehive]),\n'
    f'        .target(name: "Lib{n}", dependencies: [beehive, "Lib{n}Annotations"]),' for n in library_targets)
c20_deps = ", ".join(f'"Lib{n}"' for n in library_targets)
write("Package.swift", f"""// swift-tools-version:6.1
// Generated by Benchmarks/GeneratedApp/generate.py: do not edit.
import PackageDescription

let beehive = Target.Dependency.product(name: "BeeHive", package: "{beehive_name}")

let package = Package(
    name: "GeneratedApp",
    platforms: [.macOS(.v15)],
    products: [
{products}
    ],
    dependencies: [.package(path: "{beehive}")],
    targets: [
        .executableTarget(name: "Code", dependencies: [beehive]),
        .executableTarget(
            name: "Macros",
            dependencies: [beehive, .product(name: "BeeHiveAnnotations", package: "{beehive_name}")]),
        .target(name: "CAnnotations", dependencies: [beehive]),
        .executableTarget(name: "C", dependencies: [beehive, "CAnnotations"]),
{library_decls}
        .executableTarget(name: "C20", dependencies: [beehive, {c20_deps}]),
    ]
)
""")
