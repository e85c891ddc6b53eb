// The frame of every page of a site: the head (charset, viewport, Content-Security-Policy, title,
// the site's stylesheet), a header that leads to the index and to the tags, and the end of the
// page. Text is escaped as it is written; URLs come in already percent-encoded and relative.

import Localization
import Themes

struct SiteHTML {
    /// The climb from the page's folder to the site's root (`""` or `../…`).
    let climb: String
    let siteTitle: String
    let pageTitle: String
    /// The page listing every note (the index, or `_notes.html` beside a home note).
    let notesPage: String
    let theme: PreviewTheme
    let locale: SupportedLocale
    var out: [UInt8] = []

    init(climb: String, siteTitle: String, pageTitle: String, notesPage: String, theme: PreviewTheme, locale: SupportedLocale) {
        self.climb = climb
        self.siteTitle = siteTitle
        self.pageTitle = pageTitle
        self.notesPage = notesPage
        self.theme = theme
        self.locale = locale
        out.reserveCapacity(8_192)
    }

    /// No script at all; styles from the site's stylesheet; images and media from the site, or
    /// `https:` and `data:` as notes show them; nothing else.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; media-src 'self' https:; "
        + "font-src 'self'; base-uri 'none'; form-action 'none'"

    /// Writes the page's head and header.
    mutating func open() {
        let language = locale == .enXA ? "en" : locale.rawValue
        out += "<!DOCTYPE html>\n<html lang=\"".utf8
        out += language.utf8
        out += locale.isRightToLeft ? "\" dir=\"rtl\"".utf8 : "\"".utf8
        out += " data-theme=\"".utf8
        out += theme.rawValue.utf8
        out += "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n".utf8
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"".utf8
        out += SiteHTML.contentSecurityPolicy.utf8
        out += "\">\n<title>".utf8
        escape(pageTitle == siteTitle ? pageTitle : pageTitle + " · " + siteTitle)
        // No icon: without this line a browser asks the server's root for /favicon.ico, which a
        // site served under a path does not have.
        out += "</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"".utf8
        escape(climb + SitePages.stylesheet)
        out += "\">\n</head>\n<body>\n<header class=\"site-header\">\n<nav>\n<a class=\"site-title\" href=\"".utf8
        escape(climb + SitePages.index)
        out += "\">".utf8
        escape(siteTitle)
        out += "</a>\n<a href=\"".utf8
        escape(climb + notesPage)
        out += "\">".utf8
        text(LocalizedText("site.notes"))
        out += "</a>\n<a href=\"".utf8
        escape(climb + SitePages.tagsIndex)
        out += "\">".utf8
        text(LocalizedText("site.tags"))
        out += "</a>\n</nav>\n</header>\n<main>\n".utf8
    }

    /// Ends the page; its bytes.
    mutating func close() -> [UInt8] {
        out += "</main>\n</body>\n</html>\n".utf8
        return out
    }

    /// Markup, as it is.
    mutating func write(_ markup: String) {
        out += markup.utf8
    }

    /// `<li><a href="…">text</a></li>`.
    mutating func listItem(href: String, text: String) {
        out += "<li><a href=\"".utf8
        escape(href)
        out += "\">".utf8
        escape(text)
        out += "</a></li>\n".utf8
    }

    /// Text the writer reads, in the page's language.
    mutating func text(_ text: LocalizedText) {
        escape(text.string(in: locale))
    }

    /// `text` with `&`, `<`, `>` and `"` escaped (for text and attribute values alike).
    mutating func escape(_ text: String) {
        out += SiteHTML.escaped(text).utf8
    }

    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
