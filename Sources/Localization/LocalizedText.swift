// LocalizedText: a message for people, kept as its catalog key and arguments until it is shown,
// so the layers that find problems (the index, the workspace, the IDE) stay free of languages and
// the one that shows them (the server, `macmd`) writes them in the writer's language.
//
// Invariants:
// - Every message a person reads is a `LocalizedText` made from a catalog key
//   (`LocalizedText("diagnostic.link.brokenFile", target, written)`), or `verbatim` text that is
//   not ours to translate (a system error's text, user content). `UserFacingLiteralTests` checks
//   that no English is written as a literal outside the catalog.
// - Showing one never fails (`Catalog.string`): a key the catalog lacks shows marked.

/// A message for people: a catalog key and its arguments, or text shown as it is.
public struct LocalizedText: Sendable, Hashable, CustomStringConvertible {
    private enum Content: Sendable, Hashable {
        case key(String, [CatalogArgument])
        case verbatim(String)
    }

    private let content: Content

    /// The message of catalog key `key` with `arguments` for its placeholders.
    public init(_ key: String, _ arguments: CatalogArgument...) {
        content = .key(key, arguments)
    }

    /// The message of catalog key `key` with `arguments` for its placeholders.
    public init(_ key: String, arguments: [CatalogArgument]) {
        content = .key(key, arguments)
    }

    private init(content: Content) { self.content = content }

    /// Text shown as it is in every language: not ours to translate (an operating system's error
    /// text, a message of another program, user content).
    public static func verbatim(_ text: String) -> LocalizedText { LocalizedText(content: .verbatim(text)) }

    /// The catalog key, or nil for verbatim text.
    public var key: String? {
        if case let .key(key, _) = content { return key }
        return nil
    }

    /// The arguments of a catalog message (none for verbatim text).
    public var arguments: [CatalogArgument] {
        if case let .key(_, arguments) = content { return arguments }
        return []
    }

    /// The message in `locale`.
    public func string(in locale: SupportedLocale) -> String {
        string(in: locale, catalog: .builtIn(for: locale))
    }

    /// The message in `locale`, from `catalog`.
    public func string(in locale: SupportedLocale, catalog: Catalog) -> String {
        switch content {
        case let .key(key, arguments): catalog.string(key, locale: locale, arguments: arguments)
        case let .verbatim(text): text
        }
    }

    /// The message in English, the source language (logs, tests).
    public var english: String { string(in: .en) }

    public var description: String { english }
}

extension CatalogArgument {
    /// A message of the catalog in place of a `%@`.
    public static func message(_ key: String, _ arguments: CatalogArgument...) -> CatalogArgument {
        .text(LocalizedText(key, arguments: arguments))
    }
}
