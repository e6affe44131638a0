import Testing
@testable import BeeHiveRouter
