// The one place where LSP's values become the view model's: positions become UTF-8 offsets,
// content changes become new text, file events become disk events, preview options become typed
// options. (URIs become paths through `FileURI`, in LSPTypes.)
//
// Invariants: nothing here traps on a client's values. Positions past a line's end or inside a
// character are clamped; a reversed range inserts at its start; an unknown option is an error
// that names the field.

import JSON
import JSONRPC
import LSPTypes
import Localization
import MarkdownHTML
import MarkdownSyntax
import NotebookIDE
import NotebookWorkspace
import TextCore
import Themes

enum FromLSP {
    /// The UTF-8 offset of `position` in the text `lines` indexes.
    static func offset(_ position: LSPPosition, _ lines: LineIndex, _ encoding: PositionEncoding) -> Int {
        lines.utf8Offset(of: position, encoding: encoding)
    }

    /// `changes` applied in order to the text of `lines`, with the line index of the result; a
    /// change without a range replaces everything. Each change updates the index it was made
    /// from (`LineIndex.replacing`), so a keystroke does not read the whole text again.
    static func applying(_ changes: [TextDocumentContentChangeEvent], to lines: LineIndex, encoding: PositionEncoding) -> LineIndex {
        var lines = lines
        for change in changes {
            guard let range = change.range else {
                lines = LineIndex(utf8: Array(change.text.utf8))
                continue
            }
            let start = max(0, min(offset(range.start, lines, encoding), lines.utf8Count))
            // A reversed range is a client bug; inserting at its start loses nothing.
            let end = max(start, min(offset(range.end, lines, encoding), lines.utf8Count))
            lines = lines.replacing(start..<end, with: change.text.utf8)
        }
        return lines
    }

    static func diskEventKind(_ kind: FileEvent.Kind) -> DiskEvent.Kind {
        switch kind {
        case .created: return .created
        case .changed: return .changed
        case .deleted: return .deleted
        }
    }

    /// A preview's options; an unknown profile or theme names the field and the values it takes.
    static func previewOptions(_ params: PreviewParams) -> Result<PreviewOptions, ResponseError> {
        var options = PreviewOptions()
        if let name = params.profile {
            guard let profile = ParseOptions.Profile(rawValue: name) else {
                return .failure(invalid(LocalizedText("lspParams.invalid", "params.options.profile", .message("server.preview.expected.profile"), .string("\"\(name)\""))))
            }
            options.profile = profile
        }
        if let name = params.theme {
            guard let theme = PreviewTheme(rawValue: name) else {
                return .failure(invalid(LocalizedText("lspParams.invalid", "params.options.theme", .message("server.preview.expected.theme", .string(PreviewTheme.namesList)),
                                                     .string("\"\(name)\""))))
            }
            options.theme = theme
        }
        if let name = params.math {
            guard let math = MathMarkup(rawValue: name) else {
                return .failure(invalid(LocalizedText("lspParams.invalid", "params.options.math", .message("server.preview.expected.math"), .string("\"\(name)\""))))
            }
            options.math = math
        }
        options.fullPage = params.fullPage ?? false
        options.sourceLines = params.sourceLines ?? true
        options.safe = params.safe ?? true
        switch (params.resources, params.baseUri) {
        case (nil, nil), ("relative", nil):
            options.resources = .relative
        case ("absolute", nil):
            options.resources = .absolute
        case (nil, let base?):
            guard isAbsoluteURI(base) else {
                return .failure(invalid(LocalizedText("lspParams.invalid", "params.options.baseUri", .message("server.preview.expected.absoluteURI"), .string("\"\(base)\""))))
            }
            options.resources = .base(base)
        case (let name?, nil):
            return .failure(invalid(LocalizedText("lspParams.invalid", "params.options.resources", .message("server.preview.expected.resources"), .string("\"\(name)\""))))
        case (_?, _?):
            return .failure(invalid(LocalizedText("server.preview.resourcesAndBaseUri", "params.options")))
        }
        if let nonce = params.scriptNonce {
            guard options.fullPage, HTMLOptions.isValidNonce(nonce) else {
                return .failure(invalid(options.fullPage
                    ? LocalizedText("lspParams.invalid", "params.options.scriptNonce", .message("server.preview.expected.nonce"), .string("\"\(nonce)\""))
                    : LocalizedText("server.preview.scriptNeedsFullPage", "params.options.scriptNonce")))
            }
            options.scriptNonce = nonce
        }
        if let base = params.tagPages {
            guard isAbsoluteURI(base) else {
                return .failure(invalid(LocalizedText("lspParams.invalid", "params.options.tagPages", .message("server.preview.expected.absoluteURI"), .string("\"\(base)\""))))
            }
            options.tagPages = base
        }
        if params.baseHref == true {
            guard options.fullPage else {
                return .failure(invalid(LocalizedText("server.preview.baseNeedsFullPage", "params.options.baseHref")))
            }
            options.baseElement = true
        }
        return .success(options)
    }

    /// True for `scheme:…` with a scheme of two or more characters (a Windows path's `C:` is none).
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = text.utf8[..<colon]
        guard scheme.count >= 2, let first = scheme.first, (first | 0x20) &- UInt8(ascii: "a") < 26 else { return false }
        return scheme.allSatisfy {
            ($0 | 0x20) &- UInt8(ascii: "a") < 26 || $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "+")
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    static func invalid(_ text: LocalizedText) -> ResponseError {
        ResponseError(code: ResponseError.invalidParams, text: text)
    }

    /// An invalid-params error with text given as it is (a system error's).
    static func invalid(_ message: String) -> ResponseError {
        ResponseError(code: ResponseError.invalidParams, message: message)
    }
}

/// The server's text synchronization, for the fuzzers and tests outside this module: what a
/// `textDocument/didChange` does to a document's text.
public enum TextSynchronization {
    /// `changes` applied in order to `lines`, positions read in `encoding` and clamped as the
    /// server clamps them.
    public static func applying(_ changes: [TextDocumentContentChangeEvent], to lines: LineIndex,
                                encoding: PositionEncoding) -> LineIndex {
        FromLSP.applying(changes, to: lines, encoding: encoding)
    }
}

extension FromLSP {
    /// The notebook, open document and target a completion item's `data` names.
    static func completionTarget(_ data: CompletionItemData) -> (folder: String, uri: String?, target: CompletionTarget) {
        let target: CompletionTarget
        switch data.anchor {
        case .note: target = .note(path: data.path)
        case .heading(let index, let text): target = .heading(path: data.path, headingIndex: index, text: text)
        case .block(let id): target = .block(path: data.path, id: id)
        }
        return (data.root, data.uri, target)
    }

    /// The mention action a resolved code action's `data` names (`ToLSP.mentionActionData`),
    /// with its document and fingerprint; nil for data MacMD did not write.
    static func mentionAction(_ data: JSONValue?) -> (uri: String, kind: MentionAction.Kind, fingerprint: UInt64)? {
        guard let data, let uri = data["uri"]?.stringValue,
              let fingerprint = data["fingerprint"]?.stringValue.flatMap({ UInt64($0, radix: 16) }) else { return nil }
        switch data["macmd"]?.stringValue {
        case "linkMention":
            guard let start = data["start"]?.intValue, let end = data["end"]?.intValue, let target = data["target"]?.stringValue,
                  start >= 0, end >= start, end <= Int(Int32.max) else { return nil }
            return (uri, .link(span: ByteSpan(start, end), target: target), fingerprint)
        case "linkAllMentions":
            return (uri, .linkAll, fingerprint)
        default:
            return nil
        }
    }
}
