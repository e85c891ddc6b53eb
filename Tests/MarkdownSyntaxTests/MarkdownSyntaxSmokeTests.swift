import XCTest
@testable import MarkdownSyntax

final class MarkdownSyntaxSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
