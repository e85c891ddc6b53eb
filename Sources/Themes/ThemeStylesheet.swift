// The inline stylesheet of full-page output.
//
// Invariants:
// - One base stylesheet serves every theme; a theme only sets the custom properties in `:root`
//   (see `ThemePalette`). Nothing else in the stylesheet names a colour.
// - The stylesheet references no external resource (no fonts, images or imports): previews must
//   read well offline.
// - In print every theme falls back to the light palette, so a dark page prints black on white.
// - Maths written as MathML takes the colour of the text around it (the theme's text colour);
//   only TeX source waiting for KaTeX or MathJax gets the theme's `--math` colour. Display maths
//   is centred and scrolls sideways when it is wider than the page (a formula inside a centred
//   line that does not fit starts at the left edge, CSS Text's rule, so all of it can be
//   reached). A formula the converter rejected shows its source in the error colour, underlined.
// - No script: pages draw maths with the browser's MathML.

/// Builds the CSS of a full page for a `PreviewTheme`.
enum ThemeStylesheet {
    /// The complete stylesheet: the theme's variables, the base rules, then the print rules.
    static func css(for theme: PreviewTheme) -> String {
        var css = ""
        css.reserveCapacity(6_000)
        css += ":root {\n"
        css += variables(theme.palette)
        css += "}\n"
        css += String(describing: base)
        css += "@media print {\n  :root {\n"
        var printPalette = ThemePalette.light
        printPalette.font = theme.palette.font
        css += variables(printPalette, indent: "    ")
        css += "  }\n"
        css += String(describing: print)
        css += "}\n"
        return css
    }

    /// The custom property declarations of `palette`, one per line.
    static func variables(_ palette: ThemePalette, indent: String = "  ") -> String {
        let pairs: [(String, String)] = [
            ("color-scheme", palette.isDark ? "dark" : "light"),
            ("--bg", palette.background), ("--fg", palette.text), ("--muted", palette.muted),
            ("--border", palette.border), ("--link", palette.link), ("--code-bg", palette.codeBackground),
            ("--tag-bg", palette.tagBackground), ("--tag-fg", palette.tagText), ("--math", palette.math),
            ("--success", palette.success), ("--warning", palette.warning), ("--error", palette.error),
            ("--hl-keyword", palette.keyword), ("--hl-string", palette.string), ("--hl-comment", palette.comment),
            ("--hl-number", palette.number), ("--hl-type", palette.type), ("--hl-function", palette.function),
            ("--hl-meta", palette.meta), ("--font", palette.font.cssStack),
        ]
        var text = ""
        for (name, value) in pairs {
            text += indent + name + ": " + value + ";\n"
        }
        return text
    }

    /// The rules of a site's own parts (`macmd export NOTEBOOK`): the header on every page,
    /// the backlinks after a note, the lists of the index and the tag pages.
    static let site: StaticString = """
        .site-header { border-bottom: 1px solid var(--border); }
        .site-header nav { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 12px 45px;
          display: flex; gap: 1.5em; font: 15px/1.5 var(--font); }
        .site-header a { color: var(--muted); text-decoration: none; }
        .site-header a.site-title { color: var(--fg); font-weight: 600; margin-inline-end: auto; }
        .site-header a:hover { color: var(--link); }
        @media (max-width: 767px) { .site-header nav { padding: 12px 16px; } }
        .backlinks { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 0 45px 16px;
          font: 15px/1.5 var(--font); color: var(--muted); }
        .backlinks h2 { font-size: 1em; font-weight: 600; margin: 0 0 .5em; padding-top: 16px; border-top: 1px solid var(--border); }
        .backlinks ul { margin: 0; padding-inline-start: 1.25em; }
        .backlinks a { color: var(--link); }
        @media (max-width: 767px) { .backlinks { padding: 0 16px 16px; } }
        main > .page-statistics { box-sizing: border-box; max-width: 980px; margin: 0 auto 32px; padding: 0 45px;
          font: 13.6px/1.5 var(--font); color: var(--muted); }
        .site-count { color: var(--muted); }
        .site-tags ul { list-style: none; padding-inline-start: 1.25em; }
        .site-tags ul.tag-tree { padding-inline-start: 0; }
        .site-tags li { margin: .25em 0; }
        .markdown-body .unpublished { color: inherit; }
        .markdown-body .align-left { text-align: left; } .markdown-body .align-center { text-align: center; }
        .markdown-body .align-right { text-align: right; }

        """

    /// The rules every theme shares; colours only through the variables above.
    static let base: StaticString = """
        html, body { background: var(--bg); }
        body { margin: 0; color: var(--fg); }
        .markdown-body { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 32px 45px;
          font: 16px/1.5 var(--font); overflow-wrap: break-word; }
        @media (max-width: 767px) { .markdown-body { padding: 16px; } }
        .markdown-body a { color: var(--link); }
        .markdown-body h1, .markdown-body h2 { border-bottom: 1px solid var(--border); padding-bottom: .3em; }
        .markdown-body hr { height: 0; border: 0; border-top: 2px solid var(--border); }
        .markdown-body code, .markdown-body pre { font-family: ui-monospace, SFMono-Regular, Menlo, Monaco,
          Consolas, "Liberation Mono", monospace; font-size: 85%; background: var(--code-bg); border-radius: 6px; }
        .markdown-body code { padding: .2em .4em; }
        .markdown-body pre { padding: 16px; overflow: auto; line-height: 1.45; }
        .markdown-body pre code { padding: 0; background: none; font-size: 100%; }
        .markdown-body blockquote { margin: 0 0 16px; padding: 0 1em; color: var(--muted); border-left: .25em solid var(--border); }
        .markdown-body table { border-collapse: collapse; display: block; max-width: 100%; overflow: auto; }
        .markdown-body th, .markdown-body td { border: 1px solid var(--border); padding: 6px 13px; }
        .markdown-body th, .markdown-body tbody tr:nth-child(2n) { background: var(--code-bg); }
        .markdown-body img { max-width: 100%; }
        .markdown-body input[type=checkbox] { accent-color: var(--link); }
        .markdown-alert { padding: .5em 1em; margin-bottom: 16px; border-left: .25em solid var(--alert, var(--border)); }
        .markdown-alert-title { font-weight: 600; margin: 0; color: var(--alert, var(--fg)); }
        .markdown-alert-note { --alert: var(--link); } .markdown-alert-tip { --alert: var(--success); }
        .markdown-alert-important { --alert: var(--hl-function); } .markdown-alert-warning { --alert: var(--warning); }
        .markdown-alert-caution { --alert: var(--error); }
        .markdown-body a.wikilink { color: var(--link); }
        .markdown-body a.wikilink.unresolved, .markdown-body a.wikilink.broken, .markdown-body a.broken { color: var(--error); text-decoration: underline dotted; }
        .markdown-body a.wikilink.ambiguous { color: var(--warning); text-decoration: underline dotted; }
        .markdown-body .embed { margin: 0 0 16px; padding: .25em 1em; border: 1px solid var(--border); border-left: .25em solid var(--link); border-radius: 6px; }
        .markdown-body .embed > :last-child { margin-bottom: .5em; }
        .markdown-body .embed-source { margin: .25em 0 .5em; font-size: 85%; }
        .markdown-body .embed-source a { color: var(--muted); text-decoration: none; }
        .markdown-body .embed-source a::before { content: "\\2197\\00a0"; }
        .markdown-body a.wikilink.stopped { text-decoration: underline dotted; cursor: help; }
        .markdown-body .tag { color: var(--tag-fg); background: var(--tag-bg); border-radius: 1em; padding: 0 .5em; text-decoration: none; }
        .math:not(:has(> math)) { color: var(--math); }
        .math-display { display: block; overflow-x: auto; overflow-y: hidden; margin: 1em 0; padding: .2em 0; text-align: center; }
        .math-display > math { display: inline math; }
        .markdown-body code.math-error { color: var(--error); text-decoration: underline dotted; cursor: help; }
        .footnotes { font-size: 85%; color: var(--muted); border-top: 1px solid var(--border); }
        .markdown-body .page-statistics { margin-top: 2em; padding-top: .5em; font-size: 85%; color: var(--muted); border-top: 1px solid var(--border); }
        .hl-keyword, .hl-tag { color: var(--hl-keyword); }
        .hl-string { color: var(--hl-string); }
        .hl-comment { color: var(--hl-comment); font-style: italic; }
        .hl-number, .hl-literal { color: var(--hl-number); }
        .hl-type, .hl-attr { color: var(--hl-type); }
        .hl-function { color: var(--hl-function); }
        .hl-meta, .hl-variable { color: var(--hl-meta); }

        """

    /// Print rules (inside `@media print`): full width, wrapped code, no breaks inside blocks.
    static let print: StaticString = """
          .markdown-body { max-width: none; padding: 0; }
          .markdown-body pre { white-space: pre-wrap; overflow-wrap: anywhere; }
          .markdown-body pre, .markdown-body blockquote, .markdown-body table, .markdown-body img,
          .markdown-alert, .math-display { break-inside: avoid; }
          .markdown-body h1, .markdown-body h2, .markdown-body h3, .markdown-body h4, .markdown-body h5,
          .markdown-body h6 { break-after: avoid; }
          .markdown-body a { text-decoration: underline; }

        """
}
