import XCTest
@testable import TextCore

final class TextCoreSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
