// Host and plugins import this module only: the Hummingbird they see is the one inside libBeeHiveHummingbird.so.
@_exported import Hummingbird
@_exported import ServiceLifecycle
