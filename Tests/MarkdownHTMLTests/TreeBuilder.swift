// Builds syntax trees by hand for renderer tests, independent of the parser.

import MarkdownSyntax
import MarkdownHTML
import TextCore

/// A small helper that appends nodes and their content text to a `SyntaxTree`.
struct TreeBuilder {
    var tree: SyntaxTree

    init(source: String = "", extensions: ParseOptions.Extensions = .notebook) {
        tree = SyntaxTree(source: Array(source.utf8), options: ParseOptions(extensions: extensions))
    }

    /// Appends `text` to the content buffer and returns its span.
    mutating func content(_ text: String) -> ByteSpan {
        let start = tree.content.count
        tree.content.append(contentsOf: Array(text.utf8))
        return ByteSpan(start, tree.content.count)
    }

    /// Appends raw bytes to the content buffer and returns their span.
    mutating func content(bytes: [UInt8]) -> ByteSpan {
        let start = tree.content.count
        tree.content.append(contentsOf: bytes)
        return ByteSpan(start, tree.content.count)
    }

    @discardableResult
    mutating func add(_ kind: NodeKind, to parent: NodeID = SyntaxTree.root, text: String? = nil, flags: UInt8 = 0,
                      data: Int32 = 0, sourceStart: Int = 0) -> NodeID {
        var node = Node(kind: kind, flags: flags, sourceStart: Int32(sourceStart), sourceEnd: Int32(sourceStart), data: data)
        if let text {
            let span = content(text)
            node.contentStart = span.start
            node.contentEnd = span.end
        }
        let id = tree.makeNode(node)
        tree.appendChild(id, to: parent)
        return id
    }

    /// A paragraph holding one text node.
    @discardableResult
    mutating func paragraph(_ text: String, to parent: NodeID = SyntaxTree.root, decode: Bool = false,
                            sourceStart: Int = 0) -> NodeID {
        let paragraph = add(.paragraph, to: parent, sourceStart: sourceStart)
        add(.text, to: paragraph, text: text, flags: decode ? Node.textNeedsDecoding : 0)
        return paragraph
    }

    /// An inline link `[text](destination "title")`.
    @discardableResult
    mutating func link(_ text: String, destination: String, title: String? = nil, image: Bool = false,
                       to parent: NodeID) -> NodeID {
        let destinationSpan = content(destination)
        let titleSpan = title.map { content($0) } ?? .empty
        tree.links.append(LinkInfo(form: .inline, destination: destinationSpan, title: titleSpan, hasTitle: title != nil))
        let link = add(image ? .image : .link, to: parent, data: Int32(tree.links.count - 1))
        add(.text, to: link, text: text)
        return link
    }

    func html(_ options: HTMLOptions = HTMLOptions(safe: false)) -> String {
        HTMLRenderer(options: options).renderString(tree)
    }
}
