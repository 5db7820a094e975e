import Testing
@testable import Injector
