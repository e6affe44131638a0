import Testing
@testable import BeeHiveServices
