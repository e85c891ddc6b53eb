import XCTest
@testable import NotebookIDE

/// The variables the server resolves: VS Code's meanings, the writer's time zone, a fixed clock
/// and random source.
final class SnippetVariablesTests: XCTestCase {
    func values(_ names: [String], _ variables: SnippetVariables) -> [String] {
        names.map { name in
            switch variables.resolve(name) {
            case .value(let value): return value
            case .editor: return "<editor>"
            case .unknown: return "<unknown>"
            }
        }
    }

    func testFileAndNotebookVariables() {
        let names = ["TM_FILENAME", "TM_FILENAME_BASE", "TM_DIRECTORY", "TM_FILEPATH", "RELATIVE_FILEPATH",
                     "WORKSPACE_NAME", "WORKSPACE_FOLDER", "NOTE_TITLE"]
        XCTAssertEqual(values(names, SnippetTestVariables.make()), [
            "my-note.md", "my-note", "/home/ann/notes/journal", "/home/ann/notes/journal/my-note.md", "journal/my-note.md",
            "notes", "/home/ann/notes", "My Note",
        ])
        // A trailing slash on the folder changes nothing; a note outside it keeps its whole path.
        XCTAssertEqual(values(["RELATIVE_FILEPATH", "WORKSPACE_NAME"], SnippetTestVariables.make(folder: "/home/ann/notes/")),
                       ["journal/my-note.md", "notes"])
        XCTAssertEqual(values(["RELATIVE_FILEPATH"], SnippetTestVariables.make(folder: "/elsewhere")),
                       ["/home/ann/notes/journal/my-note.md"])
        // Outside any notebook the editor knows the workspace, if any; without a title the
        // note's title is its file name.
        XCTAssertEqual(values(["WORKSPACE_NAME", "WORKSPACE_FOLDER", "RELATIVE_FILEPATH", "NOTE_TITLE"],
                              SnippetTestVariables.make(folder: nil, title: nil)),
                       ["<editor>", "<editor>", "/home/ann/notes/journal/my-note.md", "my-note"])
        // A buffer that is not a file: the editor names it.
        XCTAssertEqual(values(["TM_FILENAME", "TM_FILENAME_BASE", "TM_DIRECTORY", "TM_FILEPATH", "RELATIVE_FILEPATH", "NOTE_TITLE"],
                              SnippetTestVariables.make(filePath: nil, title: nil)),
                       ["<editor>", "<editor>", "<editor>", "<editor>", "<editor>", ""])
        // VS Code's base name: the last extension goes, a leading dot stays.
        XCTAssertEqual(values(["TM_FILENAME_BASE", "TM_DIRECTORY"], SnippetTestVariables.make(filePath: "/a.b.md")), ["a.b", "/"])
        XCTAssertEqual(values(["TM_FILENAME_BASE"], SnippetTestVariables.make(filePath: "/n/.hidden")), [".hidden"])
        XCTAssertEqual(values(["TM_FILENAME_BASE", "TM_DIRECTORY"], SnippetTestVariables.make(filePath: "README")), ["README", ""])
    }

    /// A note's view gives its file, notebook and title; a note outside every notebook has no
    /// workspace, and a buffer that is not a file no file.
    func testTheVariablesOfANoteView() {
        var host = AnalysisHost()
        host.addFolder("/home/ann/notes")
        let text = Array("---\ntitle: Garden diary\n---\nBody\n".utf8)
        let inNotebook = OpenDocument(id: "a", file: "/home/ann/notes/journal/day one.md", languageID: "markdown", version: 1, text: text)
        let outside = OpenDocument(id: "b", file: "/tmp/loose.md", languageID: "markdown", version: 1, text: Array("# Loose\n".utf8))
        let buffer = OpenDocument(id: "c", file: nil, languageID: "markdown", version: 1, text: [])
        for document in [inNotebook, outside, buffer] { host.open(document) }
        let snapshot = host.snapshot()
        let names = ["TM_FILEPATH", "RELATIVE_FILEPATH", "WORKSPACE_NAME", "WORKSPACE_FOLDER", "NOTE_TITLE", "CURRENT_HOUR"]
        func variables(_ document: OpenDocument) -> [String] {
            values(names, snapshot.view(of: document).snippetVariables(clock: SnippetTestVariables.clock, random: SnippetTestVariables.constant))
        }
        XCTAssertEqual(variables(inNotebook), ["/home/ann/notes/journal/day one.md", "journal/day one.md", "notes", "/home/ann/notes",
                                               "Garden diary", "10"])
        XCTAssertEqual(variables(outside), ["/tmp/loose.md", "/tmp/loose.md", "<editor>", "<editor>", "Loose", "10"])
        XCTAssertEqual(variables(buffer), ["<editor>", "<editor>", "<editor>", "<editor>", "untitled", "10"])
    }

    func testEditorAndUnknownVariables() {
        let variables = SnippetTestVariables.make()
        XCTAssertEqual(values(["TM_SELECTED_TEXT", "CLIPBOARD", "TM_CURRENT_LINE", "TM_LINE_NUMBER", "NOT_A_VARIABLE", "current_year"], variables),
                       ["<editor>", "<editor>", "<editor>", "<editor>", "<unknown>", "<unknown>"])
        XCTAssertEqual(SnippetVariables.serverNames.map { variables.resolve($0) }.filter { $0 == .unknown || $0 == .editor }, [])
    }

    static let timeNames = ["CURRENT_YEAR", "CURRENT_YEAR_SHORT", "CURRENT_MONTH", "CURRENT_MONTH_NAME", "CURRENT_MONTH_NAME_SHORT",
                            "CURRENT_DATE", "CURRENT_DAY_NAME", "CURRENT_DAY_NAME_SHORT", "CURRENT_HOUR", "CURRENT_MINUTE",
                            "CURRENT_SECOND", "CURRENT_SECONDS_UNIX", "CURRENT_TIMEZONE_OFFSET"]

    func time(_ seconds: Int64, offset: Int) -> [String] {
        values(SnippetVariablesTests.timeNames,
               SnippetTestVariables.make(clock: SnippetClock(secondsSinceEpoch: seconds, utcOffsetSeconds: offset)))
    }

    func testDatesFollowTheWritersTimeZone() {
        XCTAssertEqual(time(1_714_552_496, offset: 7_200),
                       ["2024", "24", "05", "May", "May", "01", "Wednesday", "Wed", "10", "34", "56", "1714552496", "+02:00"])
        XCTAssertEqual(time(1_714_552_496, offset: -19_800),
                       ["2024", "24", "05", "May", "May", "01", "Wednesday", "Wed", "03", "04", "56", "1714552496", "-05:30"])
        // The same moment is still April 30 west of Greenwich late enough.
        XCTAssertEqual(time(1_714_521_600, offset: -3_600)[0...7], ["2024", "24", "04", "April", "Apr", "30", "Tuesday", "Tue"])
        // A leap day, the epoch, the second before it, a new year's night, a century.
        XCTAssertEqual(time(951_825_600, offset: 0),
                       ["2000", "00", "02", "February", "Feb", "29", "Tuesday", "Tue", "12", "00", "00", "951825600", "+00:00"])
        XCTAssertEqual(time(0, offset: 0),
                       ["1970", "70", "01", "January", "Jan", "01", "Thursday", "Thu", "00", "00", "00", "0", "+00:00"])
        XCTAssertEqual(time(-1, offset: 0),
                       ["1969", "69", "12", "December", "Dec", "31", "Wednesday", "Wed", "23", "59", "59", "-1", "+00:00"])
        XCTAssertEqual(time(1_735_689_599, offset: 3_600)[0...10],
                       ["2025", "25", "01", "January", "Jan", "01", "Wednesday", "Wed", "00", "59", "59"])
        XCTAssertEqual(time(4_102_444_800, offset: 0)[0...7], ["2100", "00", "01", "January", "Jan", "01", "Friday", "Fri"])
    }

    func testEveryDayOfFourHundredYearsAgreesWithACountedCalendar() {
        // Count days from 1970-01-01 forward and check each date the clock gives.
        var year = 1970, month = 1, day = 1, weekday = 4
        func daysIn(_ month: Int, _ year: Int) -> Int {
            switch month {
            case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
        for dayNumber in 0..<146_097 {
            let local = SnippetClock(secondsSinceEpoch: Int64(dayNumber) * 86_400 + 43_200, utcOffsetSeconds: 0).local
            if local != SnippetDateTime(year: year, month: month, day: day, hour: 12, minute: 0, second: 0, weekday: weekday) {
                return XCTFail("day \(dayNumber): \(local), expected \(year)-\(month)-\(day)")
            }
            weekday = (weekday + 1) % 7
            day += 1
            if day > daysIn(month, year) {
                day = 1
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
            }
        }
    }

    func testExtremeClocksDoNotTrap() {
        for seconds in [Int64.min, Int64.max, -62_135_596_800, 253_402_300_799] {
            for offset in [Int.min, -50_400, 0, 50_400, Int.max] {
                XCTAssertEqual(time(seconds, offset: offset).count, SnippetVariablesTests.timeNames.count)
            }
        }
    }

    func testNamesComeFromTheLanguagesTable() {
        XCTAssertEqual(SnippetCalendarNames.forLanguage("en-GB"), .english)
        XCTAssertEqual(SnippetCalendarNames.forLanguage("EN_us"), .english)
        // A language without a table reads English until one is added.
        XCTAssertEqual(SnippetCalendarNames.forLanguage("xx"), .english)
        XCTAssertEqual(SnippetCalendarNames.forLanguage(""), .english)
        for names in SnippetCalendarNames.byLanguage.values {
            XCTAssertEqual([names.months.count, names.shortMonths.count, names.days.count, names.shortDays.count], [12, 12, 7, 7])
        }
    }

    func testRandomVariables() {
        let fixed = SnippetTestVariables.make()
        XCTAssertEqual(values(["UUID", "RANDOM", "RANDOM_HEX"], fixed),
                       ["01234567-89ab-4def-8123-456789abcdef", "486895", "abcdef"])
        // Small numbers keep their leading zeros.
        let counting = SnippetTestVariables.make(random: SnippetTestVariables.counting())
        XCTAssertEqual(values(["RANDOM", "RANDOM_HEX", "RANDOM"], counting), ["000001", "000002", "000003"])
        // Each use is a new value.
        let template = try? SnippetParser.parse("$UUID $UUID").get()
        let text = template?.plainText(variables: SnippetTestVariables.make(random: SnippetTestVariables.counting()))
        XCTAssertEqual(text, "00000000-0000-4001-8000-000000000002 00000000-0000-4003-8000-000000000004")
        // The system's generator gives different values.
        let system = SnippetTestVariables.make(random: SnippetVariables.systemRandom)
        XCTAssertNotEqual(values(["UUID"], system), values(["UUID"], system))
        // Version 4, variant 10xx, whatever the bits.
        var generator = SnippetTestRandom(seed: 3)
        for _ in 0..<100 {
            let value = generator.next()
            let uuid = values(["UUID"], SnippetTestVariables.make(random: { value }))[0]
            let bytes = Array(uuid.utf8)
            XCTAssertEqual(bytes.count, 36)
            XCTAssertEqual([bytes[8], bytes[13], bytes[18], bytes[23]], Array("----".utf8))
            XCTAssertEqual(bytes[14], UInt8(ascii: "4"))
            XCTAssertTrue("89ab".utf8.contains(bytes[19]), uuid)
        }
    }
}
