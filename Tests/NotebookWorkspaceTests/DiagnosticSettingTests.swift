import JSON
import NotebookIndex
import XCTest
@testable import NotebookWorkspace

/// `diagnostics` in the settings: each code keeps its own severity until configured, except the
/// codes that are off until asked for (`math-error`), which any severity turns on.
final class DiagnosticSettingTests: XCTestCase {
    private func configuration(_ value: JSONValue) -> NotebookConfiguration {
        NotebookConfiguration(layers: [ConfigurationLayer(source: "test", value: value)])
    }

    func testMathErrorIsOffUntilTheSettingsGiveItASeverity() {
        let defaults = configuration([:])
        XCTAssertNil(defaults.severity(of: .mathError, default: .warning), "off by default")
        XCTAssertEqual(defaults.severity(of: .brokenLink, default: .error), .error, "other codes keep their own")
        XCTAssertEqual(configuration(["diagnostics": ["math-error": "warning"]]).severity(of: .mathError, default: .warning), .warning)
        XCTAssertEqual(configuration(["diagnostics": ["math-error": "error"]]).severity(of: .mathError, default: .warning), .error)
        XCTAssertNil(configuration(["diagnostics": ["math-error": "off"]]).severity(of: .mathError, default: .warning))
        let bad = configuration(["diagnostics": ["math-error": "on"]])
        XCTAssertNil(bad.severity(of: .mathError, default: .warning), "a refused value leaves it off")
        XCTAssertEqual(bad.problems.map(\.reason.english), ["`diagnostics.math-error`: expected error, warning, information, hint or off, got `on`"])
    }
}
