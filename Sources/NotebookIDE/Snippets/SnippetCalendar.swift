// The calendar of the date and time variables: a moment (seconds since the epoch) and a time
// zone's offset made into a civil date and time, and the month and day names of a language.
//
// Invariants:
// - Pure arithmetic on the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`),
//   exact for any moment within `SnippetClock.secondsRange`; a moment outside it is clamped.
// - Names come from a table per language; a language without a table reads English.

/// The moment a snippet is expanded, as the server's clock gives it: `time()` and the offset
/// of the writer's time zone (`localtime_r`'s `tm_gmtoff`, which follows `TZ`).
public struct SnippetClock: Sendable, Equatable {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    public var secondsSinceEpoch: Int64
    /// The time zone's offset from UTC in seconds, east positive (UTC+2 is 7200).
    public var utcOffsetSeconds: Int

    /// The moments the calendar computes exactly: years 0 to 9999, and far beyond.
    static let secondsRange: ClosedRange<Int64> = -100_000_000_000...100_000_000_000

    public init(secondsSinceEpoch: Int64, utcOffsetSeconds: Int) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The local date and time.
    var local: SnippetDateTime {
        let offset = Int64(max(-86_400, min(86_400, utcOffsetSeconds)))
        let seconds = min(max(secondsSinceEpoch, Self.secondsRange.lowerBound), Self.secondsRange.upperBound) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        // civil_from_days: day 0 is 1970-01-01.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // 1970-01-01 was a Thursday (4, counting from Sunday 0).
        let weekday = Int(((days % 7) + 11) % 7)
        return SnippetDateTime(year: Int(year), month: Int(month), day: Int(day), hour: secondOfDay / 3_600,
                               minute: secondOfDay / 60 % 60, second: secondOfDay % 60, weekday: weekday)
    }
}

/// A civil date and time.
struct SnippetDateTime: Equatable {
    var year: Int
    /// 1 to 12.
    var month: Int
    /// 1 to 31.
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 0 (Sunday) to 6 (Saturday).
    var weekday: Int
}

/// The month and day names of one language.
public struct SnippetCalendarNames: Sendable, Equatable {
    /// January first.
    public var months: [String]
    public var shortMonths: [String]
    /// Sunday first.
    public var days: [String]
    public var shortDays: [String]

    public static let english = SnippetCalendarNames(
        months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                 "November", "December"],
        shortMonths: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        days: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
        shortDays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])

    /// The tables by language (the part of a language code before `-` or `_`, lower case), and
    /// Chinese in the traditional script as `zh-hant`.
    static let byLanguage: [String: SnippetCalendarNames] = [
        "en": english, "de": german, "fr": french, "es": spanish, "it": italian, "pt": portuguese, "nl": dutch,
        "sv": swedish, "da": danish, "nb": norwegianBokmal, "no": norwegianBokmal, "nn": norwegianNynorsk,
        "fi": finnish, "pl": polish, "cs": czech, "ru": russian, "uk": ukrainian, "tr": turkish, "el": greek,
        "hu": hungarian, "ro": romanian, "ja": japanese, "zh": chinese, "zh-hant": chineseTraditional, "ko": korean,
        "ar": arabic,
    ]

    /// The language codes with a table, sorted.
    public static var languages: [String] { byLanguage.keys.sorted() }

    /// The names for a language code (`en`, `en-GB`, `fr_FR`); English when there is no table
    /// for the language. Chinese goes by its script when the code names one (`zh-Hant`,
    /// `zh-Hans-HK`), else by its region: Taiwan, Hong Kong and Macau read the traditional script.
    public static func forLanguage(_ code: String) -> SnippetCalendarNames {
        let parts = code.prefix { $0 != "." && $0 != "@" }.utf8
            .split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
            .map { String(decoding: $0, as: UTF8.self).lowercased() }
        let language = parts.first ?? ""
        if language == "zh" {
            let rest = parts.dropFirst()
            let traditional = rest.contains("hant") || (!rest.contains("hans") && rest.contains { ["tw", "hk", "mo"].contains($0) })
            return traditional ? chineseTraditional : chinese
        }
        return byLanguage[language] ?? english
    }
}
