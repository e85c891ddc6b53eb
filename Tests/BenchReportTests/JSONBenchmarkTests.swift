import XCTest
import MacMDBench

final class JSONBenchmarkTests: XCTestCase {
    func testBenchmarkReportsAByteIdenticalRoundTrip() {
        let report = JSONBenchmark.run(textBytes: 10_000, iterations: 2)
        XCTAssertTrue(report.contains("round trip byte-identical: true"), report)
        XCTAssertTrue(report.contains("parse"), report)
    }
}
