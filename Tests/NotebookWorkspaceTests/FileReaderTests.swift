import Foundation
import TestSupport
import XCTest
@testable import NotebookWorkspace

/// Whole-file reads: exact bytes, the limit, and clear errors for folders and missing files.
final class FileReaderTests: XCTestCase {
    func testReadsWholeFilesLimitsAndErrors() {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fixture = NotebookFixture([:])
        defer { fixture.destroy() }
        try? FileManager.default.createDirectory(atPath: fixture.root + "/folder", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: fixture.root + "/big.bin", contents: Data(bytes))
        _ = FileManager.default.createFile(atPath: fixture.root + "/empty.md", contents: Data())
        XCTAssertEqual(try FileReader.contents(of: fixture.root + "/big.bin").get(), bytes)
        XCTAssertEqual(try FileReader.contents(of: fixture.root + "/big.bin", limit: 10).get(), Array(bytes.prefix(10)))
        XCTAssertEqual(try FileReader.contents(of: fixture.root + "/empty.md").get(), [])
        guard case .failure(let folder) = FileReader.contents(of: fixture.root + "/folder") else { return XCTFail("a folder read") }
        XCTAssertTrue(folder.description.hasSuffix("it is a folder"), folder.description)
        guard case .failure(let missing) = FileReader.contents(of: fixture.root + "/nope.md") else { return XCTFail("a missing file read") }
        XCTAssertTrue(missing.description.contains("No such file"), missing.description)
    }

    func testSnapshotsGiveBytesSizeAndTimeFromOneOpenAndRefuseFilesOverTheLimit() {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let fixture = NotebookFixture(["note.md": "# note\n"])
        defer { fixture.destroy() }
        try? FileManager.default.createDirectory(atPath: fixture.root + "/folder", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: fixture.root + "/big.bin", contents: Data(bytes))
        _ = FileManager.default.createFile(atPath: fixture.root + "/empty.md", contents: Data())
        var info = stat()
        XCTAssertEqual(stat(fixture.root + "/big.bin", &info), 0)
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/big.bin"),
                       .read(FileSnapshot(bytes: bytes, size: 200_000, modificationTimeNanoseconds: FileReader.modificationTime(info))))
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/big.bin", maxSize: 200_000).readBytes, bytes)
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/big.bin", maxSize: 199_999), .tooLarge(size: 200_000))
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/empty.md").readBytes, [])
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/note.md").readBytes, Array("# note\n".utf8))
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/folder"), .failed(FileReadError(path: fixture.root + "/folder", errno: EISDIR)))
        XCTAssertEqual(FileReader.snapshot(of: fixture.root + "/nope.md"), .failed(FileReadError(path: fixture.root + "/nope.md", errno: ENOENT)))
    }
}

extension FileSnapshotOutcome {
    /// The bytes of a file read, nil otherwise.
    var readBytes: [UInt8]? {
        if case .read(let snapshot) = self { return snapshot.bytes }
        return nil
    }
}
