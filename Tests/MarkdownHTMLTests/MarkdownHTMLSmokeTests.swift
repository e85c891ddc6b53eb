import XCTest
@testable import MarkdownHTML

final class MarkdownHTMLSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
