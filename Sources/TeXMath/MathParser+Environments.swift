// `\begin{…}…\end{…}`: matrices, cases, aligned and gathered lines, arrays, as `<mtable>`.
//
// MathML Core has no `columnalign` or `rowlines`: alignment and rules are CSS on the cells
// (`text-align`, `border-*`), as few as the layout needs.

/// The environments and how each lays out its table.
import Localization

enum MathEnvironment {
    /// Centred cells between two delimiters (0 for none): `matrix`, `pmatrix`…
    case matrix(left: UInt32, right: UInt32, small: Bool)
    /// Left-aligned cells after a brace (or before it: `rcases`).
    case cases(right: Bool, display: Bool)
    /// Pairs of right- and left-aligned columns in display style: `aligned`, `align`, `split`.
    case aligned(takesColumnCount: Bool)
    /// Centred lines in display style.
    case gathered
    /// Columns given by a specification: `array`, `darray`, `subarray`.
    case array(display: Bool, small: Bool)

    static func named(_ name: String) -> MathEnvironment? {
        switch name {
        case "matrix": .matrix(left: 0, right: 0, small: false)
        case "pmatrix": .matrix(left: 0x28, right: 0x29, small: false)
        case "bmatrix": .matrix(left: 0x5B, right: 0x5D, small: false)
        case "Bmatrix": .matrix(left: 0x7B, right: 0x7D, small: false)
        case "vmatrix": .matrix(left: 0x7C, right: 0x7C, small: false)
        case "Vmatrix": .matrix(left: 0x2016, right: 0x2016, small: false)
        case "smallmatrix": .matrix(left: 0, right: 0, small: true)
        case "cases": .cases(right: false, display: false)
        case "dcases": .cases(right: false, display: true)
        case "rcases": .cases(right: true, display: false)
        case "drcases": .cases(right: true, display: true)
        case "aligned", "align", "align*", "split": .aligned(takesColumnCount: false)
        case "alignedat", "alignat", "alignat*": .aligned(takesColumnCount: true)
        case "gathered", "gather", "gather*": .gathered
        case "array": .array(display: false, small: false)
        case "darray": .array(display: true, small: false)
        case "subarray": .array(display: false, small: true)
        default: nil
        }
    }
}

/// A column of `array`: its alignment (`l`, `c`, `r`) and the rule before it.
struct ArrayColumn {
    var alignment: UInt8
    var ruleBefore: UInt8 = 0
}

extension MathParser {
    /// After `\begin`: the environment up to its `\end`.
    @inline(never)
    mutating func parseEnvironment(_ owner: MathToken) throws(MathParseError) -> Int32 {
        let nameRange = try readRawGroup(of: owner)
        let name = string(nameRange)
        guard let environment = MathEnvironment.named(name) else {
            throw error("math.error.unknownEnvironment", .string(shown(nameRange)), at: nameRange.lowerBound)
        }
        var columns: [ArrayColumn] = []
        var ruleAfterLast: UInt8 = 0
        switch environment {
        case .array:
            (columns, ruleAfterLast) = try readColumnSpecification(owner)
        case .aligned(takesColumnCount: true):
            let count = try readRawGroup(of: owner)
            guard !count.isEmpty, source[count].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw error("math.error.needsColumnCount", .string(name), at: count.lowerBound)
            }
        default:
            break
        }
        let savedDisplay = displayStyle, savedFont = font
        defer {
            displayStyle = savedDisplay
            font = savedFont
        }
        let tableDisplay: Bool
        switch environment {
        case .aligned, .gathered: tableDisplay = true
        case .cases(_, let display), .array(let display, _): tableDisplay = display
        case .matrix: tableDisplay = false
        }
        displayStyle = tableDisplay
        let begin = owner.start
        var rows = NodeList()
        // The cells of the row before, whose bottom rule is known only at the next row.
        var pendingCells: [Int32] = []
        var pendingTop: UInt8 = 0
        var rowCount = 0
        while true {
            var top: UInt8 = 0
            while let command = currentCommand, case .horizontalLine(let dashed) = command {
                top = dashed ? 2 : 1
                advance()
            }
            var cells: [Int32] = []
            var ended = false
            var cellList = NodeList()
            while true {
                font = savedFont
                let (list, end) = try parseRow()
                let cell = tree.element(.mtd, list)
                cells.append(cell)
                tree.append(cell, to: &cellList)
                switch end {
                case .alignment:
                    advance()
                    continue
                case .newline:
                    advance()
                    try skipRowSpacing()
                case .end:
                    let endToken = token
                    advance()
                    let endName = try readRawGroup(of: endToken)
                    guard string(endName) == name else {
                        throw error("math.error.endMismatch", .string(shown(endName)), .string(name), at: endToken.start)
                    }
                    ended = true
                default:
                    throw error("math.error.missingEnd", .string(name), at: begin)
                }
                break
            }
            // A last row that is empty (after a final `\\`) is no row; its rule is the bottom rule
            // of the row before.
            let isEmptyLast = ended && cells.count == 1 && tree[cells[0]].firstChild < 0 && rowCount > 0
            if rowCount > 0 {
                styleCells(pendingCells, environment, columns, ruleAfterLast, top: pendingTop, bottom: isEmptyLast ? top : 0)
            }
            if isEmptyLast { break }
            tree.append(tree.element(.mtr, cellList), to: &rows)
            rowCount += 1
            pendingCells = cells
            pendingTop = top
            if ended {
                styleCells(pendingCells, environment, columns, ruleAfterLast, top: pendingTop, bottom: 0)
                break
            }
        }
        return environmentNode(environment, rows: rows, display: tableDisplay)
    }

    /// The table in its delimiters and style.
    private mutating func environmentNode(_ environment: MathEnvironment, rows: NodeList, display: Bool) -> Int32 {
        let table = tree.element(.mtable, rows, attributes: display ? tree.store(" displaystyle=\"true\"") : nil)
        var node = table
        switch environment {
        case .matrix(let left, let right, let small):
            if small { node = tree.element(.mstyle, table, attributes: tree.store(" scriptlevel=\"1\"")) }
            if left != 0 {
                let open = delimiter(tree.store(scalar: left), form: .prefix)
                let close = delimiter(tree.store(scalar: right), form: .postfix)
                node = tree.element(.mrow, open, node, close)
            }
        case .cases(let right, _):
            if right {
                let close = delimiter(tree.store(scalar: 0x7D), form: .postfix)
                node = tree.element(.mrow, table, close)
            } else {
                let open = delimiter(tree.store(scalar: 0x7B), form: .prefix)
                node = tree.element(.mrow, open, table)
            }
        case .array(_, let small):
            if small { node = tree.element(.mstyle, table, attributes: tree.store(" scriptlevel=\"1\"")) }
        case .aligned, .gathered:
            break
        }
        tree.nodes[Int(node)].atom = .inner
        return node
    }

    /// Column alignment and rules as the cells' CSS.
    private mutating func styleCells(_ cells: [Int32], _ environment: MathEnvironment, _ columns: [ArrayColumn],
                                     _ ruleAfterLast: UInt8, top: UInt8, bottom: UInt8) {
        for (column, cell) in cells.enumerated() {
            var style = ""
            switch environment {
            case .aligned:
                style = column % 2 == 0 ? "text-align:right;justify-items:end;padding-right:0"
                    : "text-align:left;justify-items:start;padding-left:0"
            case .cases:
                style = column == 0 ? "text-align:left;justify-items:start" : "text-align:left;justify-items:start;padding-left:1em"
            case .array:
                if column < columns.count {
                    switch columns[column].alignment {
                    case UInt8(ascii: "l"): style = "text-align:left;justify-items:start"
                    case UInt8(ascii: "r"): style = "text-align:right;justify-items:end"
                    default: break
                    }
                    addRule(&style, "left", columns[column].ruleBefore)
                    if column == columns.count - 1 { addRule(&style, "right", ruleAfterLast) }
                }
            case .matrix, .gathered:
                break
            }
            addRule(&style, "top", top)
            addRule(&style, "bottom", bottom)
            if !style.isEmpty {
                let attributes = tree.store(" style=\"\(style)\"")
                tree.nodes[Int(cell)].attributesStart = attributes.lowerBound
                tree.nodes[Int(cell)].attributesEnd = attributes.upperBound
            }
        }
    }

    /// Adds `border-side:…` for a rule (1 solid, 2 dashed).
    private func addRule(_ style: inout String, _ side: String, _ rule: UInt8) {
        guard rule != 0 else { return }
        if !style.isEmpty { style += ";" }
        style += "border-\(side):0.0667em \(rule == 2 ? "dashed" : "solid")"
    }

    /// `{c|cc:l}`: the columns of an array and the rule after the last.
    private mutating func readColumnSpecification(_ owner: MathToken) throws(MathParseError) -> ([ArrayColumn], UInt8) {
        let range = try readRawGroup(of: owner)
        var columns: [ArrayColumn] = []
        var rule: UInt8 = 0
        for offset in range {
            switch source[offset] {
            case UInt8(ascii: "l"), UInt8(ascii: "c"), UInt8(ascii: "r"):
                columns.append(ArrayColumn(alignment: source[offset], ruleBefore: rule))
                rule = 0
            case UInt8(ascii: "|"): rule = 1
            case UInt8(ascii: ":"): rule = 2
            case 0x20, 0x09, 0x0A, 0x0D: break
            default:
                throw error("math.error.unsupportedColumn", .string(shown(range)), at: offset)
            }
        }
        guard !columns.isEmpty else { throw error("math.error.noColumns", at: range.lowerBound) }
        return (columns, rule)
    }
}
