// The MathML a formula becomes, as an arena: nodes in one array, linked by index, with their
// text and attributes in one byte pool.
//
// Invariants:
// - A node is an element of MathML Core (`MathTag`); children are a linked list (`firstChild`,
//   `nextSibling`), and each node is the child of at most one parent.
// - Token text and attribute text are UTF-8 in `bytes`, not yet escaped (the writer escapes).
// - Nothing here allocates per node beyond the two arrays' growth.

/// The MathML Core elements the converter writes.
enum MathTag: UInt8 {
    case mrow, mi, mn, mo, mtext, mspace
    case msub, msup, msubsup, munder, mover, munderover
    case mfrac, msqrt, mroot, mtable, mtr, mtd
    case mstyle, mpadded, mphantom

    var name: StaticString {
        switch self {
        case .mrow: "mrow"
        case .mi: "mi"
        case .mn: "mn"
        case .mo: "mo"
        case .mtext: "mtext"
        case .mspace: "mspace"
        case .msub: "msub"
        case .msup: "msup"
        case .msubsup: "msubsup"
        case .munder: "munder"
        case .mover: "mover"
        case .munderover: "munderover"
        case .mfrac: "mfrac"
        case .msqrt: "msqrt"
        case .mroot: "mroot"
        case .mtable: "mtable"
        case .mtr: "mtr"
        case .mtd: "mtd"
        case .mstyle: "mstyle"
        case .mpadded: "mpadded"
        case .mphantom: "mphantom"
        }
    }

    /// Token elements hold text; the others hold elements.
    var isToken: Bool {
        switch self {
        case .mi, .mn, .mo, .mtext: true
        default: false
        }
    }
}

/// TeX's classes of atoms, which decide spacing and where scripts go.
enum AtomClass: UInt8 {
    case ord, op, bin, rel, open, close, punct, inner
}

/// Where an operator's scripts go.
enum LimitsPlacement: UInt8 {
    /// Beside it (`\int`, `\sin`, anything not an operator).
    case beside
    /// Under and over it in display style, beside it otherwise (`\sum`, `\lim`).
    case display
    /// Always under and over it (`\limits`, `\overbrace`).
    case always
}

struct MathNode {
    var tag: MathTag
    var atom: AtomClass = .ord
    var limits: LimitsPlacement = .beside
    var flags: UInt16 = 0
    var firstChild: Int32 = -1
    var nextSibling: Int32 = -1
    /// Token text in the pool.
    var textStart: Int32 = 0
    var textEnd: Int32 = 0
    /// Attribute text in the pool, each attribute with its leading space.
    var attributesStart: Int32 = 0
    var attributesEnd: Int32 = 0

    /// An `mrow` written even around a single child (`\left…\right`, a group that must stay one).
    static let keepRow: UInt16 = 1
    /// An `mi` written with `mathvariant="normal"` when it is a single character.
    static let upright: UInt16 = 2
    /// An `mo` written with `movablelimits="false"` (`\sum\limits` outside display style).
    static let fixedLimits: UInt16 = 4
    /// An `mi` of letters in a font (`\mathrm{ab}`) that the next letter of the same font extends.
    static let letterRun: UInt16 = 8
    /// A named function (`\sin`), followed by a thin space before an ordinary atom.
    static let function: UInt16 = 16
    /// An `mo` written with `form="prefix"`: a binary operator TeX reads as unary (`(-1)`).
    static let prefixForm: UInt16 = 32
    /// Bits 8–11: the font of a letter run, so that only the same font extends it.
    static let fontShift: UInt16 = 8
}

/// A list of sibling nodes being built: its first and last node (-1 when empty).
struct NodeList {
    var head: Int32 = -1
    var tail: Int32 = -1
    var count = 0

    var isEmpty: Bool { count == 0 }
}

/// The node arena and its byte pool.
struct MathTree {
    var nodes: [MathNode] = []
    var bytes: [UInt8] = []

    init() {
        nodes.reserveCapacity(64)
        bytes.reserveCapacity(256)
    }

    subscript(_ id: Int32) -> MathNode {
        get { nodes[Int(id)] }
        set { nodes[Int(id)] = newValue }
    }

    /// Adds a node and returns its index.
    mutating func add(_ node: MathNode) -> Int32 {
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    /// Adds an element whose children are `children`.
    mutating func element(_ tag: MathTag, _ children: NodeList, attributes: Range<Int32>? = nil) -> Int32 {
        var node = MathNode(tag: tag, firstChild: children.head)
        if let attributes {
            node.attributesStart = attributes.lowerBound
            node.attributesEnd = attributes.upperBound
        }
        return add(node)
    }

    /// Adds an element with exactly the children given, in order.
    mutating func element(_ tag: MathTag, _ children: Int32..., attributes: Range<Int32>? = nil) -> Int32 {
        var list = NodeList()
        for child in children { append(child, to: &list) }
        return element(tag, list, attributes: attributes)
    }

    /// Adds a token element with the text already in the pool at `text`.
    mutating func token(_ tag: MathTag, text: Range<Int32>, atom: AtomClass = .ord, attributes: Range<Int32>? = nil, flags: UInt16 = 0) -> Int32 {
        var node = MathNode(tag: tag, atom: atom, flags: flags, textStart: text.lowerBound, textEnd: text.upperBound)
        if let attributes {
            node.attributesStart = attributes.lowerBound
            node.attributesEnd = attributes.upperBound
        }
        return add(node)
    }

    /// Links `node` at the end of `list`.
    mutating func append(_ node: Int32, to list: inout NodeList) {
        nodes[Int(node)].nextSibling = -1
        if list.tail >= 0 {
            nodes[Int(list.tail)].nextSibling = node
        } else {
            list.head = node
        }
        list.tail = node
        list.count += 1
    }

    /// Links all of `other` at the end of `list`.
    mutating func append(contentsOf other: NodeList, to list: inout NodeList) {
        guard other.count > 0 else { return }
        if list.tail >= 0 {
            nodes[Int(list.tail)].nextSibling = other.head
        } else {
            list.head = other.head
        }
        list.tail = other.tail
        list.count += other.count
    }

    /// Makes `list` one node: itself when it holds exactly one, else an `mrow` of them.
    mutating func single(_ list: NodeList) -> Int32 {
        if list.count == 1 { return list.head }
        return element(.mrow, list)
    }

    // MARK: The pool

    /// Appends the UTF-8 of `scalar` to the pool.
    mutating func appendScalar(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (scalar >> 6)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (scalar >> 12)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (scalar >> 18)))
            bytes.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Stores `text` in the pool; returns where.
    mutating func store(_ text: StaticString) -> Range<Int32> {
        let start = Int32(bytes.count)
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        return start..<Int32(bytes.count)
    }

    /// Stores `text` in the pool; returns where.
    mutating func store(_ text: String) -> Range<Int32> {
        let start = Int32(bytes.count)
        bytes.append(contentsOf: text.utf8)
        return start..<Int32(bytes.count)
    }

    /// Stores one scalar in the pool; returns where.
    mutating func store(scalar: UInt32) -> Range<Int32> {
        let start = Int32(bytes.count)
        appendScalar(scalar)
        return start..<Int32(bytes.count)
    }

    /// Stores bytes in the pool; returns where.
    mutating func store(_ source: UnsafeBufferPointer<UInt8>) -> Range<Int32> {
        let start = Int32(bytes.count)
        bytes.append(contentsOf: source)
        return start..<Int32(bytes.count)
    }
}
