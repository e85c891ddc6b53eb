// The colours of each preview theme.
//
// Invariants:
// - Every colour is a CSS hex colour (`#rrggbb`) and every theme sets every field, so the shared
//   stylesheet never falls back to another theme's colour.
// - Text and accent colours keep readable contrast on their theme's background (and on its code
//   background), including the terminal-inspired themes.

/// The font family a theme sets its prose in (all are local system fonts: pages need no network).
public enum ThemeFont: String, Sendable {
    case sans
    case serif
    case mono

    /// The CSS `font-family` stack.
    var cssStack: String {
        switch self {
        case .sans: return "-apple-system, BlinkMacSystemFont, \"Segoe UI\", \"Noto Sans\", Helvetica, Arial, sans-serif"
        case .serif: return "\"Iowan Old Style\", \"Palatino Linotype\", Palatino, Georgia, \"Times New Roman\", serif"
        case .mono: return "ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, \"Liberation Mono\", monospace"
        }
    }
}

/// The colours of one `PreviewTheme`: what its CSS custom properties are set to.
public struct ThemePalette: Sendable, Equatable {
    /// True for dark backgrounds (sets CSS `color-scheme: dark`).
    public var isDark: Bool
    /// Page background.
    public var background: String
    /// Body text.
    public var text: String
    /// Secondary text: block quotes and footnotes.
    public var muted: String
    /// Rules, table cells, heading underlines and block quote bars.
    public var border: String
    /// Links and wiki-links; the colour of NOTE alerts.
    public var link: String
    /// Background of inline code, code blocks and table headers.
    public var codeBackground: String
    /// Background and text of `#tag` pills.
    public var tagBackground: String
    public var tagText: String
    /// Maths written as TeX source (`HTMLOptions.math` `.tex`, before KaTeX or MathJax, if
    /// any, typesets it); MathML takes the text colour.
    public var math: String
    /// TIP alerts.
    public var success: String
    /// WARNING alerts.
    public var warning: String
    /// CAUTION alerts and unresolved wiki-links.
    public var error: String
    /// Highlighted code: keywords (and markup tag names).
    public var keyword: String
    /// Highlighted code: string literals.
    public var string: String
    /// Highlighted code: comments.
    public var comment: String
    /// Highlighted code: numbers and literals such as `true` and `nil`.
    public var number: String
    /// Highlighted code: type names (and markup attribute names and keys).
    public var type: String
    /// Highlighted code: called functions; the colour of IMPORTANT alerts.
    public var function: String
    /// Highlighted code: attributes, decorators, preprocessor lines and variables.
    public var meta: String
    /// The prose font.
    public var font: ThemeFont

    /// The palette of `theme`.
    public static func of(_ theme: PreviewTheme) -> ThemePalette {
        switch theme {
        case .light: return light
        case .dark: return dark
        case .basic: return basic
        case .grass: return grass
        case .homebrew: return homebrew
        case .manPage: return manPage
        case .novel: return novel
        case .ocean: return ocean
        case .pro: return pro
        case .redSands: return redSands
        case .silverAerogel: return silverAerogel
        case .solidColors: return solidColors
        }
    }

    // GitHub's light and dark colours.
    static let light = ThemePalette(
        isDark: false, background: "#ffffff", text: "#1f2328", muted: "#59636e", border: "#d1d9e0",
        link: "#0969da", codeBackground: "#f6f8fa", tagBackground: "#ddf4ff", tagText: "#0969da",
        math: "#6639ba", success: "#1a7f37", warning: "#9a6700", error: "#cf222e",
        keyword: "#cf222e", string: "#0a3069", comment: "#59636e", number: "#0550ae", type: "#953800",
        function: "#8250df", meta: "#116329", font: .sans)

    static let dark = ThemePalette(
        isDark: true, background: "#0d1117", text: "#e6edf3", muted: "#9198a1", border: "#3d444d",
        link: "#4493f8", codeBackground: "#161b22", tagBackground: "#172b45", tagText: "#79b8ff",
        math: "#d2a8ff", success: "#3fb950", warning: "#d29922", error: "#f85149",
        keyword: "#ff7b72", string: "#a5d6ff", comment: "#9198a1", number: "#79c0ff", type: "#ffa657",
        function: "#d2a8ff", meta: "#7ee787", font: .sans)

    // Terminal's Basic: black on white with its ANSI colours (darkened where they are too pale
    // to read on white).
    static let basic = ThemePalette(
        isDark: false, background: "#ffffff", text: "#000000", muted: "#666666", border: "#bfbfbf",
        link: "#0000b2", codeBackground: "#f2f2f2", tagBackground: "#e6e6f7", tagText: "#0000b2",
        math: "#b200b2", success: "#007f00", warning: "#7a7a00", error: "#990000",
        keyword: "#b200b2", string: "#007f00", comment: "#737373", number: "#0000b2", type: "#00808a",
        function: "#990000", meta: "#7a7a00", font: .sans)

    // Terminal's Grass: light yellow on dark green, orange bold text.
    static let grass = ThemePalette(
        isDark: true, background: "#13773d", text: "#fff0a5", muted: "#d3d9a0", border: "#4c9a63",
        link: "#ffb03b", codeBackground: "#0e5c2f", tagBackground: "#0e5c2f", tagText: "#ffb03b",
        math: "#ffd7a8", success: "#c8f59a", warning: "#ffb03b", error: "#ffab9c",
        keyword: "#ffb03b", string: "#c8f59a", comment: "#a9cfae", number: "#ffd27a", type: "#9fe8ff",
        function: "#fff8d6", meta: "#f8b4d9", font: .sans)

    // Terminal's Homebrew: bright green on black, a monochrome phosphor screen.
    static let homebrew = ThemePalette(
        isDark: true, background: "#000000", text: "#28fe14", muted: "#1fbf10", border: "#125f0a",
        link: "#b4ff9f", codeBackground: "#0a1f08", tagBackground: "#0f2f0b", tagText: "#b4ff9f",
        math: "#d8ff8c", success: "#28fe14", warning: "#e5e512", error: "#ff5f5f",
        keyword: "#e5e512", string: "#00e5e5", comment: "#17a80c", number: "#ff8cff", type: "#8cffb4",
        function: "#ffffff", meta: "#ffb347", font: .mono)

    // Terminal's Man Page: black on pale yellow, set like a printed manual.
    static let manPage = ThemePalette(
        isDark: false, background: "#fef49c", text: "#000000", muted: "#5c5630", border: "#c9bd5e",
        link: "#1a1aa6", codeBackground: "#f5e886", tagBackground: "#efdf78", tagText: "#1a1aa6",
        math: "#6b1f8a", success: "#1f6b1f", warning: "#805200", error: "#b21818",
        keyword: "#1a1aa6", string: "#7a3b00", comment: "#66603a", number: "#b21818", type: "#1f6b1f",
        function: "#000000", meta: "#6b1f8a", font: .serif)

    // Terminal's Novel: dark brown on cream, like a book page.
    static let novel = ThemePalette(
        isDark: false, background: "#dfdbc3", text: "#3b2322", muted: "#6b5a50", border: "#b5ad8c",
        link: "#8e2a2a", codeBackground: "#d4cfb1", tagBackground: "#cec6a0", tagText: "#8e2a2a",
        math: "#5b3a70", success: "#3f6b24", warning: "#7d5200", error: "#a31f1f",
        keyword: "#8e2a2a", string: "#3f6b24", comment: "#6e6353", number: "#2f4f8f", type: "#6b4a1f",
        function: "#5b3a70", meta: "#73635a", font: .serif)

    // Terminal's Ocean: white on deep blue.
    static let ocean = ThemePalette(
        isDark: true, background: "#224fbc", text: "#ffffff", muted: "#cdd9f7", border: "#5a7ed6",
        link: "#ffe66d", codeBackground: "#1a3f98", tagBackground: "#1a3f98", tagText: "#ffe66d",
        math: "#b8f0ff", success: "#9df5a8", warning: "#ffd166", error: "#ffb8b0",
        keyword: "#ffe66d", string: "#a8f0b0", comment: "#b3c5ee", number: "#ffc4e6", type: "#8fe8ff",
        function: "#ffffff", meta: "#ffd0a0", font: .sans)

    // Terminal's Pro: light grey on black.
    static let pro = ThemePalette(
        isDark: true, background: "#000000", text: "#f2f2f2", muted: "#a6a6a6", border: "#404040",
        link: "#7aa2f7", codeBackground: "#1a1a1a", tagBackground: "#262626", tagText: "#7aa2f7",
        math: "#e5a0ff", success: "#5fd35f", warning: "#e5d35f", error: "#ff6b6b",
        keyword: "#e05ce0", string: "#8fd98f", comment: "#8c8c8c", number: "#f0c674", type: "#66d9e8",
        function: "#ffffff", meta: "#c5a5ff", font: .sans)

    // Terminal's Red Sands: light sand on reddish brown, golden bold text.
    static let redSands = ThemePalette(
        isDark: true, background: "#7a251e", text: "#d7c9a7", muted: "#c2ae92", border: "#a0544a",
        link: "#dfbd22", codeBackground: "#5e1b16", tagBackground: "#5e1b16", tagText: "#dfbd22",
        math: "#f2dcae", success: "#c5e0a0", warning: "#dfbd22", error: "#ffb3a1",
        keyword: "#dfbd22", string: "#c5e0a0", comment: "#bfa58c", number: "#ffc58a", type: "#f5e6c4",
        function: "#ffffff", meta: "#ffab91", font: .sans)

    // Terminal's Silver Aerogel: black on light grey.
    static let silverAerogel = ThemePalette(
        isDark: false, background: "#cfcfcf", text: "#000000", muted: "#3d3d3d", border: "#9a9a9a",
        link: "#0a2e8a", codeBackground: "#bebebe", tagBackground: "#b4b4b4", tagText: "#0a2e8a",
        math: "#5a1a7a", success: "#1e5e1e", warning: "#634400", error: "#8a0f0f",
        keyword: "#5a1a7a", string: "#1e5e1e", comment: "#474747", number: "#0a2e8a", type: "#633600",
        function: "#2b2b7a", meta: "#634400", font: .sans)

    // Terminal's Solid Colors: black on white with pure, saturated accents.
    static let solidColors = ThemePalette(
        isDark: false, background: "#ffffff", text: "#000000", muted: "#555555", border: "#000000",
        link: "#0000ff", codeBackground: "#eeeeee", tagBackground: "#ffff00", tagText: "#000000",
        math: "#800080", success: "#008000", warning: "#a65300", error: "#e00000",
        keyword: "#0000ff", string: "#008000", comment: "#707070", number: "#c00000", type: "#008080",
        function: "#800080", meta: "#808000", font: .sans)
}
