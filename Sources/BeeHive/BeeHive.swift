@_exported import BeeHiveModules
@_exported import BeeHiveRegistry
@_exported import BeeHiveRouter
@_exported import BeeHiveServices
