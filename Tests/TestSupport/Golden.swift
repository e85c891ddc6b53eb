import Foundation
import XCTest

/// Folders of the package the tests read.
public enum TestPaths {
    /// The package root, three levels above this file (Tests/TestSupport/Golden.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Fixtures/` of the package.
    public static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// A file or folder under `Fixtures/`.
    public static func fixture(_ path: String) -> URL { fixtures.appendingPathComponent(path) }
}

/// Expected output kept as files under `Fixtures/`: a test compares what it made with the file,
/// and `MACMD_BLESS=1` (exactly `1`) rewrites the file instead, for review in the diff.
public enum Golden {
    /// True when the run rewrites golden files (`MACMD_BLESS=1`).
    public static var isBlessing: Bool { ProcessInfo.processInfo.environment["MACMD_BLESS"] == "1" }

    /// Fails unless `actual` is the text of `Fixtures/<path>`; with `MACMD_BLESS=1` writes
    /// `actual` there and passes.
    public static func assertMatches(_ actual: String, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        assertMatches(Array(actual.utf8), path, file: file, line: line)
    }

    /// Fails unless `actual` is the bytes of `Fixtures/<path>`; with `MACMD_BLESS=1` writes
    /// `actual` there and passes.
    public static func assertMatches(_ actual: [UInt8], _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = TestPaths.fixture(path)
        if isBlessing {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if (try? Data(contentsOf: url)) != Data(actual) { try Data(actual).write(to: url) }
            } catch {
                XCTFail("cannot bless Fixtures/\(path): \(error)", file: file, line: line)
            }
            return
        }
        guard let expected = try? Data(contentsOf: url) else {
            XCTFail("no golden file Fixtures/\(path) (MACMD_BLESS=1 writes it)", file: file, line: line)
            return
        }
        guard Array(expected) != actual else { return }
        XCTFail("output differs from Fixtures/\(path) (MACMD_BLESS=1 rewrites it): "
                + firstDifference(expected: Array(expected), actual: actual), file: file, line: line)
    }

    /// The first line where the texts differ, shown both ways.
    static func firstDifference(expected: [UInt8], actual: [UInt8]) -> String {
        let expectedLines = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let want = index < expectedLines.count ? String(expectedLines[index]).debugDescription : "(end of file)"
            let got = index < actualLines.count ? String(actualLines[index]).debugDescription : "(end of file)"
            if want != got { return "line \(index + 1)\n  expected: \(want)\n  actual:   \(got)" }
        }
        return "the bytes differ (\(expected.count) expected, \(actual.count) made) but the lines read the same"
    }
}
