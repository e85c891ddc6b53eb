/// Block structure pass (stub, being written).
struct BlockParser {
    let options: ParseOptions
    init(options: ParseOptions) { self.options = options }
    mutating func parse(into tree: inout SyntaxTree) {}
}
