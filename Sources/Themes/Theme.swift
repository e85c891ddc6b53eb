// The colour themes of full-page previews.
//
// Invariants:
// - A theme is only a name for a `ThemePalette`; every theme shares one stylesheet
//   (`ThemeStylesheet`) and differs only in the CSS custom properties its palette sets.
// - Raw values are the names clients send (`macmd/preview`'s `theme`, `macmd render --theme`).

/// The colour theme of a full-page preview (`HTMLOptions.theme`).
///
/// `light` and `dark` are GitHub-like; the others follow the macOS Terminal.app profiles of the
/// same names (their background, text and accent colours).
public enum PreviewTheme: String, CaseIterable, Sendable {
    case light
    case dark
    case basic
    case grass
    case homebrew
    case manPage = "man-page"
    case novel
    case ocean
    case pro
    case redSands = "red-sands"
    case silverAerogel = "silver-aerogel"
    case solidColors = "solid-colors"

    /// The colours of this theme.
    public var palette: ThemePalette { ThemePalette.of(self) }

    /// The complete inline stylesheet of a page in this theme (what `fullPage` output embeds).
    public var stylesheet: String { ThemeStylesheet.css(for: self) }
    /// The stylesheet of a published site's pages: the page's, and the rules of the site's
    /// header, backlinks, index and tag pages.
    public var siteStylesheet: String { ThemeStylesheet.css(for: self) + String(describing: ThemeStylesheet.site) }

    /// True when the theme has a dark background (browsers then draw dark scrollbars and controls).
    public var isDark: Bool { palette.isDark }

    /// The theme names, comma-separated, for usage and error messages.
    public static var namesList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
