/// Inline pass over one leaf block's content (stub, being written).
struct InlineParser {
    let options: ParseOptions
    init(options: ParseOptions) { self.options = options }
    mutating func parse(block: NodeID, in tree: inout SyntaxTree) {}
}
