// GeneratorScript: the writing systems of generated notes and the syllable tables their words are
// made of. No text is copied from anywhere: every word is a random string of syllables (or, for
// Han, of single characters), so the notes read like a language without being one.
//
// Invariants:
// - Every word is non-empty, lowercase (no script here but Latin has case) and made only of
//   letters and combining marks: no spaces, digits or punctuation, so a heading made of words
//   slugs to the same words joined by `-`.
// - Latin words are ASCII.

/// A writing system for a note's prose.
enum GeneratorScript: Int, CaseIterable, Sendable {
    case latin, cyrillic, greek, han, japanese, arabic, devanagari

    /// Per-mille share of notes in each script: 800 Latin, 200 others.
    static let shares: [(GeneratorScript, Int)] = [
        (.latin, 800), (.cyrillic, 50), (.greek, 30), (.han, 40), (.japanese, 25), (.arabic, 30), (.devanagari, 25),
    ]

    /// True when words are written without spaces between them.
    var joinsWords: Bool { self == .han || self == .japanese }

    /// What ends a sentence (with the space that follows, when the script uses spaces).
    var fullStop: [UInt8] {
        switch self {
        case .han, .japanese: return Array("。".utf8)
        case .devanagari: return Array(" ।".utf8)
        default: return Array(".".utf8)
        }
    }

    /// What separates clauses.
    var comma: [UInt8] {
        switch self {
        case .han, .japanese: return Array("，".utf8)
        case .arabic: return Array("،".utf8)
        default: return Array(",".utf8)
        }
    }

    /// The space-separated items of `list`. Split on bytes, not Characters: a combining vowel
    /// sign after a space is one Character with it.
    private static func bytes(_ list: String) -> [[UInt8]] {
        Array(list.utf8).split(separator: 0x20).map { Array($0) }
    }

    private static let latinOnsets = bytes("b c d f g h j k l m n p r s t v w z br ch cl dr fl gr pl pr sh st th tr sp")
    private static let latinVowels = bytes("a e i o u a e i o ai ea io ou y")
    private static let latinCodas = bytes("n r s l m t nd rt st x ck")
    private static let cyrillicConsonants = bytes("б в г д ж з к л м н п р с т ф х ц ч ш щ")
    private static let cyrillicVowels = bytes("а е и о у ы я ю э а о е")
    private static let greekConsonants = bytes("β γ δ ζ θ κ λ μ ν ξ π ρ σ τ φ χ ψ")
    private static let greekVowels = bytes("α ε η ι ο υ ω ά έ ί ό ή ού αι ει")
    private static let greekFinals = bytes("ς ν ς")
    private static let hanCharacters = bytes("""
        人 大 中 国 日 月 山 水 火 木 金 土 天 地 年 时 学 生 工 作 家 心 手 口 目 耳 花 草 树 林 \
        风 雨 云 电 车 路 门 书 文 字 语 言 音 乐 画 色 光 明 白 黑 红 青 长 短 高 低 新 旧 多 少 \
        东 西 南 北 上 下 左 右 前 后 里 外 春 夏 秋 冬 早 晚 今 昨 问 题 法 理 数 算 图 表 物 质 \
        体 力 动 静 开 关 出 入 来 去 见 听 说 读 写 想 知 道 行 走 飞 看 用 做 成 为 有 无 和
        """)
    private static let kana = bytes("""
        か き く け こ さ し す せ そ た ち つ て と な に ぬ ね の は ひ ふ へ ほ ま み む め も \
        や ゆ よ ら り る れ ろ わ ん が ぎ ぐ げ ご ざ じ ず ぜ ぞ だ で ど ば び ぶ べ ぼ
        """)
    private static let katakana = bytes("""
        カ キ ク ケ コ サ シ ス セ ソ タ チ ツ テ ト ナ ニ ヌ ネ ノ ハ ヒ フ ヘ ホ マ ミ ム メ モ ラ リ ル レ ロ ン ー
        """)
    private static let arabicConsonants = bytes("ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه")
    private static let arabicVowels = bytes("ا و ي ا")
    private static let arabicArticle = Array("ال".utf8)
    private static let devanagariConsonants = bytes("क ख ग घ च छ ज झ ट ड त थ द ध न प फ ब भ म य र ल व श स ह")
    private static let devanagariSigns = bytes("ा ि ी ु ू े ै ो ौ ा")
    private static let devanagariAnusvara = Array("ं".utf8)

    /// A new random word of this script.
    func makeWord(_ random: inout GeneratorRandom) -> [UInt8] {
        typealias S = GeneratorScript
        var word: [UInt8] = []
        switch self {
        case .latin:
            let syllables = random.inRange(1, 3)
            for index in 0..<syllables {
                if index == 0 || random.chance(800) { word += random.pick(S.latinOnsets) }
                word += random.pick(S.latinVowels)
                if index == syllables - 1, random.chance(450) { word += random.pick(S.latinCodas) }
            }
        case .cyrillic:
            for _ in 0..<random.inRange(1, 4) {
                word += random.pick(S.cyrillicConsonants)
                word += random.pick(S.cyrillicVowels)
            }
            if random.chance(400) { word += random.pick(S.cyrillicConsonants) }
        case .greek:
            for _ in 0..<random.inRange(1, 4) {
                word += random.pick(S.greekConsonants)
                word += random.pick(S.greekVowels)
            }
            if random.chance(450) { word += random.pick(S.greekFinals) }
        case .han:
            for _ in 0..<random.inRange(1, 3) { word += random.pick(S.hanCharacters) }
        case .japanese:
            let table = random.chance(200) ? S.katakana : S.kana
            for _ in 0..<random.inRange(2, 4) { word += random.pick(table) }
        case .arabic:
            if random.chance(250) { word += S.arabicArticle }
            for index in 0..<random.inRange(2, 4) {
                word += random.pick(S.arabicConsonants)
                if index > 0 || random.chance(500), random.chance(500) { word += random.pick(S.arabicVowels) }
            }
        case .devanagari:
            for _ in 0..<random.inRange(1, 3) {
                word += random.pick(S.devanagariConsonants)
                if random.chance(700) { word += random.pick(S.devanagariSigns) }
            }
            if random.chance(200) { word += S.devanagariAnusvara }
        }
        return word
    }
}
