import Testing
@testable import BeeHiveModules
