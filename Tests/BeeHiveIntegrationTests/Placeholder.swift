import Testing
@testable import BeeHive
