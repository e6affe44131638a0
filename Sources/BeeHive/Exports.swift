// One import gives an app every layer: records and registry, modules, services, routing.
@_exported import BeeHiveModules
@_exported import BeeHiveObservation
@_exported import BeeHiveRegistry
@_exported import BeeHiveRouter
@_exported import BeeHiveServices
