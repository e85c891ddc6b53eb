// The values of snippet variables, as VS Code defines them, from what the server knows: the
// note's path, its notebook's folder, its title, a clock and a random generator.
//
// Invariants:
// - Deterministic given its inputs: time comes from `clock`, randomness from `random`, so a
//   test fixes both. The date and time variables read one clock, so a snippet's date and time
//   agree.
// - A variable resolves to a value (the server knows it), to `.editor` (the editor knows it:
//   the selection, the clipboard, the current line; or a server variable whose input is
//   missing, such as the file of an unsaved buffer), or to `.unknown` (no one does).

/// What the server knows for the variables of one expansion.
public struct SnippetVariables: Sendable {
    /// How a variable resolves.
    public enum Resolution: Sendable, Equatable {
        /// The server's value.
        case value(String)
        /// Left for the editor to resolve (in plain text: the default, or nothing).
        case editor
        /// No one knows the name (VS Code then inserts the name as a placeholder).
        case unknown
    }

    /// The note's absolute path (nil for a buffer that is not a file).
    public var filePath: String?
    /// The absolute path of the notebook folder the note is in (nil outside any notebook).
    public var workspaceFolder: String?
    /// The note's title (`NOTE_TITLE`); nil reads the file name without its extension. Asked
    /// for only when a snippet uses it (finding it may parse the note).
    public var noteTitle: String? { titleSource() }
    private let titleSource: @Sendable () -> String?
    /// When the snippet is expanded.
    public let clock: SnippetClock
    /// The writer's language, for month and day names (`en`, `en-GB`).
    public let languageCode: String
    /// The clock's local date and time and the language's names, worked out once.
    private let local: SnippetDateTime
    private let names: SnippetCalendarNames
    /// A source of random numbers (`UUID`, `RANDOM`, `RANDOM_HEX`): `systemRandom` in the
    /// server, a fixed sequence in tests.
    public var random: @Sendable () -> UInt64

    /// The system's random numbers.
    public static let systemRandom: @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) }

    public init(filePath: String? = nil, workspaceFolder: String? = nil, noteTitle: String? = nil,
                clock: SnippetClock, languageCode: String = "en", random: @escaping @Sendable () -> UInt64) {
        self.init(filePath: filePath, workspaceFolder: workspaceFolder, title: { noteTitle }, clock: clock,
                  languageCode: languageCode, random: random)
    }

    /// Variables whose note title is found by `title`, called each time `NOTE_TITLE` resolves.
    public init(filePath: String?, workspaceFolder: String?, title: @escaping @Sendable () -> String?,
                clock: SnippetClock, languageCode: String = "en", random: @escaping @Sendable () -> UInt64) {
        self.filePath = filePath
        self.workspaceFolder = workspaceFolder
        titleSource = title
        self.clock = clock
        self.languageCode = languageCode
        self.random = random
        local = clock.local
        names = SnippetCalendarNames.forLanguage(languageCode)
    }

    /// The variables the server resolves.
    public static let serverNames: [String] = [
        "TM_FILENAME", "TM_FILENAME_BASE", "TM_DIRECTORY", "TM_FILEPATH", "RELATIVE_FILEPATH", "WORKSPACE_NAME",
        "WORKSPACE_FOLDER", "CURRENT_YEAR", "CURRENT_YEAR_SHORT", "CURRENT_MONTH", "CURRENT_MONTH_NAME",
        "CURRENT_MONTH_NAME_SHORT", "CURRENT_DATE", "CURRENT_DAY_NAME", "CURRENT_DAY_NAME_SHORT", "CURRENT_HOUR",
        "CURRENT_MINUTE", "CURRENT_SECOND", "CURRENT_SECONDS_UNIX", "CURRENT_TIMEZONE_OFFSET", "UUID", "RANDOM",
        "RANDOM_HEX", "NOTE_TITLE",
    ]

    /// The variables only the editor knows (VS Code's): left in a snippet for it.
    public static let editorNames: Set<String> = [
        "TM_SELECTED_TEXT", "TM_CURRENT_LINE", "TM_CURRENT_WORD", "TM_LINE_INDEX", "TM_LINE_NUMBER", "CLIPBOARD",
        "BLOCK_COMMENT_START", "BLOCK_COMMENT_END", "LINE_COMMENT", "CURSOR_INDEX", "CURSOR_NUMBER", "SELECTION",
    ]

    /// How `name` resolves now (each `UUID`, `RANDOM` and `RANDOM_HEX` is a new value).
    public func resolve(_ name: String) -> Resolution {
        if let value = fileValue(name) ?? timeValue(name) ?? randomValue(name) { return value }
        if name == "NOTE_TITLE" { return .value(noteTitle ?? fileName.map(SnippetVariables.baseName) ?? "") }
        return SnippetVariables.editorNames.contains(name) ? .editor : .unknown
    }

    // MARK: Files

    private var fileName: String? { filePath.map(SnippetVariables.lastComponent) }

    private func fileValue(_ name: String) -> Resolution? {
        func known(_ value: String?) -> Resolution { value.map(Resolution.value) ?? .editor }
        switch name {
        case "TM_FILENAME": return known(fileName)
        case "TM_FILENAME_BASE": return known(fileName.map(SnippetVariables.baseName))
        case "TM_DIRECTORY": return known(filePath.map(SnippetVariables.directory))
        case "TM_FILEPATH": return known(filePath)
        case "RELATIVE_FILEPATH":
            guard let filePath else { return .editor }
            return .value(workspaceFolder.flatMap { SnippetVariables.relative(filePath, to: $0) } ?? filePath)
        case "WORKSPACE_NAME": return known(workspaceFolder.map(SnippetVariables.lastComponent))
        case "WORKSPACE_FOLDER": return known(workspaceFolder)
        default: return nil
        }
    }

    /// The part after the last `/` (a trailing `/` ignored).
    static func lastComponent(_ path: String) -> String {
        var bytes = Substring(path).utf8[...]
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")), bytes.count > 1 {
            return String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A file name without its extension; a name whose only dot is its first byte keeps it
    /// (`.hidden`), as VS Code does.
    static func baseName(_ name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return name }
        return String(decoding: name.utf8[..<dot], as: UTF8.self)
    }

    /// The folder of a path (`/` for a file at the root, empty for a bare name).
    static func directory(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == path.utf8.startIndex { return "/" }
        return String(decoding: path.utf8[..<slash], as: UTF8.self)
    }

    /// `path` relative to `folder`, or nil when it is not inside it.
    static func relative(_ path: String, to folder: String) -> String? {
        var prefix = Array(folder.utf8)
        while prefix.count > 1, prefix.last == UInt8(ascii: "/") { prefix.removeLast() }
        if prefix != [UInt8(ascii: "/")] { prefix.append(UInt8(ascii: "/")) }
        let bytes = Array(path.utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        return String(decoding: bytes[prefix.count...], as: UTF8.self)
    }

    // MARK: Time

    private func timeValue(_ name: String) -> Resolution? {
        guard name.utf8.starts(with: "CURRENT_".utf8) else { return nil }
        let value: String
        switch name {
        case "CURRENT_YEAR": value = String(local.year)
        case "CURRENT_YEAR_SHORT": value = SnippetVariables.padded(abs(local.year) % 100, 2)
        case "CURRENT_MONTH": value = SnippetVariables.padded(local.month, 2)
        case "CURRENT_MONTH_NAME": value = names.months[local.month - 1]
        case "CURRENT_MONTH_NAME_SHORT": value = names.shortMonths[local.month - 1]
        case "CURRENT_DATE": value = SnippetVariables.padded(local.day, 2)
        case "CURRENT_DAY_NAME": value = names.days[local.weekday]
        case "CURRENT_DAY_NAME_SHORT": value = names.shortDays[local.weekday]
        case "CURRENT_HOUR": value = SnippetVariables.padded(local.hour, 2)
        case "CURRENT_MINUTE": value = SnippetVariables.padded(local.minute, 2)
        case "CURRENT_SECOND": value = SnippetVariables.padded(local.second, 2)
        case "CURRENT_SECONDS_UNIX": value = String(clock.secondsSinceEpoch)
        case "CURRENT_TIMEZONE_OFFSET":
            let offset = max(-86_400, min(86_400, clock.utcOffsetSeconds))
            let minutes = abs(offset) / 60
            value = (offset < 0 ? "-" : "+") + SnippetVariables.padded(minutes / 60, 2) + ":"
                + SnippetVariables.padded(minutes % 60, 2)
        default: return nil
        }
        return .value(value)
    }

    /// `number` in decimal with leading zeros to `width` digits.
    static func padded(_ number: Int, _ width: Int) -> String { zeroPadded(String(number), width) }

    /// `digits` with leading zeros to `width` bytes.
    static func zeroPadded(_ digits: String, _ width: Int) -> String {
        digits.utf8.count >= width ? digits : String(repeating: "0", count: width - digits.utf8.count) + digits
    }

    // MARK: Random

    private func randomValue(_ name: String) -> Resolution? {
        switch name {
        case "UUID": return .value(uuid())
        case "RANDOM": return .value(SnippetVariables.padded(Int(random() % 1_000_000), 6))
        case "RANDOM_HEX": return .value(SnippetVariables.hex(random() & 0xFF_FFFF, digits: 6))
        default: return nil
        }
    }

    /// A version 4 UUID in lower case, from two random numbers.
    private func uuid() -> String {
        var bytes: [UInt8] = []
        for word in [random(), random()] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text += "-" }
            text += SnippetVariables.hex(UInt64(byte), digits: 2)
        }
        return text
    }

    /// `value` in lower-case hexadecimal with leading zeros to `digits` digits.
    static func hex(_ value: UInt64, digits: Int) -> String { zeroPadded(String(value, radix: 16), digits) }
}
