import XCTest
import TeXMath

// Expected MathML written by hand from MathML Core (https://www.w3.org/TR/mathml-core/):
// letters are <mi> (a single letter is italic by default, so upright ones say
// mathvariant="normal"), numbers <mn>, operators <mo> with the operator dictionary's spacing,
// except where TeX spaces differently (an attribute then says so).

/// A stretchy opening and closing delimiter, as `\left(` and `\right)` write them.
private let open = #"<mo form="prefix" stretchy="true" symmetric="true">"#
private let close = #"<mo form="postfix" stretchy="true" symmetric="true">"#
/// An ordinary operator character: no stretching, no spacing (`/`, `|`).
private let ordinary = #"<mo stretchy="false" lspace="0" rspace="0">"#
/// Function application after a named function, with TeX's thin space.
private let apply = "<mo lspace=\"0\" rspace=\"0.1667em\">\u{2061}</mo>"

final class ConversionTests: XCTestCase {
    func testLettersNumbersAndOperators() {
        checkCases([
            MathCase("x", "<mi>x</mi>"),
            MathCase("xy", "<mrow><mi>x</mi><mi>y</mi></mrow>"),
            MathCase("3.14", "<mn>3.14</mn>"),
            MathCase("2x", "<mrow><mn>2</mn><mi>x</mi></mrow>"),
            MathCase("1,000", "<mrow><mn>1</mn><mo>,</mo><mn>000</mn></mrow>"),
            MathCase("a+b-c", "<mrow><mi>a</mi><mo>+</mo><mi>b</mi><mo>−</mo><mi>c</mi></mrow>"),
            MathCase("a*b", "<mrow><mi>a</mi><mo>∗</mo><mi>b</mi></mrow>"),
            MathCase("-x", "<mrow><mo>−</mo><mi>x</mi></mrow>"),
            MathCase("a=-b", #"<mrow><mi>a</mi><mo>=</mo><mo form="prefix">−</mo><mi>b</mi></mrow>"#),
            MathCase("(-1)", #"<mrow><mo stretchy="false">(</mo><mo form="prefix">−</mo><mn>1</mn><mo stretchy="false">)</mo></mrow>"#),
            MathCase("[a,b)", #"<mrow><mo stretchy="false">[</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo stretchy="false">)</mo></mrow>"#),
            MathCase("a<b>c", "<mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi><mo>&gt;</mo><mi>c</mi></mrow>"),
            MathCase("a/b", "<mrow><mi>a</mi>\(ordinary)/</mo><mi>b</mi></mrow>"),
            MathCase("|x|", "<mrow>\(ordinary)|</mo><mi>x</mi>\(ordinary)|</mo></mrow>"),
            MathCase("\\|v\\|", "<mrow>\(ordinary)‖</mo><mi>v</mi>\(ordinary)‖</mo></mrow>"),
            MathCase("n!", "<mrow><mi>n</mi><mo>!</mo></mrow>"),
            MathCase("a:b", "<mrow><mi>a</mi><mo>:</mo><mi>b</mi></mrow>"),
            MathCase("f\\colon A\\to B", "<mrow><mi>f</mi><mo>:</mo><mi>A</mi><mo>→</mo><mi>B</mi></mrow>"),
            MathCase("a \\cdot b \\times c \\div d", "<mrow><mi>a</mi><mo>⋅</mo><mi>b</mi><mo>×</mo><mi>c</mi><mo>÷</mo><mi>d</mi></mrow>"),
            MathCase("\\pm 1", "<mrow><mo>±</mo><mn>1</mn></mrow>"),
            MathCase("\\alpha\\Gamma\\varepsilon\\phi\\varphi",
                     #"<mrow><mi>α</mi><mi mathvariant="normal">Γ</mi><mi>ε</mi><mi>ϕ</mi><mi>φ</mi></mrow>"#),
            MathCase("\\varGamma", "<mi>Γ</mi>"),
            MathCase("\\Omega", #"<mi mathvariant="normal">Ω</mi>"#),
            MathCase("\\infty\\emptyset\\nabla\\partial",
                     #"<mrow><mi>∞</mi><mi>∅</mi><mi mathvariant="normal">∇</mi><mi>∂</mi></mrow>"#),
            MathCase("\\forall x \\exists y", "<mrow><mi>∀</mi><mi>x</mi><mi>∃</mi><mi>y</mi></mrow>"),
            MathCase("\\aleph\\hbar\\ell\\Re\\Im", "<mrow><mi>ℵ</mi><mi>ℏ</mi><mi>ℓ</mi><mi>ℜ</mi><mi>ℑ</mi></mrow>"),
            MathCase("a\\le b\\ge c\\ne d", "<mrow><mi>a</mi><mo>≤</mo><mi>b</mi><mo>≥</mo><mi>c</mi><mo>≠</mo><mi>d</mi></mrow>"),
            MathCase("\\approx\\equiv\\sim\\simeq\\cong\\propto",
                     "<mrow><mo>≈</mo><mo>≡</mo><mo>∼</mo><mo>≃</mo><mo>≅</mo><mo>∝</mo></mrow>"),
            MathCase("x\\in A\\notin B\\subset C\\subseteq D\\supset E",
                     "<mrow><mi>x</mi><mo>∈</mo><mi>A</mi><mo>∉</mo><mi>B</mi><mo>⊂</mo><mi>C</mi><mo>⊆</mo><mi>D</mi><mo>⊃</mo><mi>E</mi></mrow>"),
            MathCase("A\\cup B\\cap C\\setminus D", "<mrow><mi>A</mi><mo>∪</mo><mi>B</mi><mo>∩</mo><mi>C</mi><mo>∖</mo><mi>D</mi></mrow>"),
            MathCase("p\\wedge q\\vee\\neg r", "<mrow><mi>p</mi><mo>∧</mo><mi>q</mi><mo>∨</mo><mi>¬</mi><mi>r</mi></mrow>"),
            MathCase("\\to\\rightarrow\\leftarrow\\Rightarrow\\Leftarrow\\iff\\implies\\mapsto",
                     "<mrow><mo>→</mo><mo>→</mo><mo>←</mo><mo>⇒</mo><mo>⇐</mo><mo>⟺</mo><mo>⟹</mo><mo>↦</mo></mrow>"),
            MathCase("\\uparrow", #"<mo stretchy="false">↑</mo>"#),
            MathCase("\\ldots\\cdots\\vdots\\ddots", "<mrow><mo>…</mo><mo>⋯</mo><mo>⋮</mo><mo>⋱</mo></mrow>"),
            MathCase("\\langle x\\rangle", #"<mrow><mo stretchy="false">⟨</mo><mi>x</mi><mo stretchy="false">⟩</mo></mrow>"#),
            MathCase("\\lfloor x\\rfloor", #"<mrow><mo stretchy="false">⌊</mo><mi>x</mi><mo stretchy="false">⌋</mo></mrow>"#),
            MathCase("\\angle\\triangle\\perp\\parallel\\mid",
                     "<mrow><mi>∠</mi><mi>△</mi><mo>⊥</mo><mo>∥</mo><mo>∣</mo></mrow>"),
            MathCase("\\backslash", "\(ordinary)\\</mo>"),
            MathCase("≤α", "<mrow><mo>≤</mo><mi>α</mi></mrow>"),
            MathCase("\\{ \\} \\$ \\% \\& \\_ \\#",
                     #"<mrow><mo stretchy="false">{</mo><mo stretchy="false">}</mo><mi>$</mi><mi>%</mi><mi>&amp;</mi><mi>_</mi><mi>#</mi></mrow>"#),
            MathCase("a % a comment\nb", "<mrow><mi>a</mi><mi>b</mi></mrow>"),
            MathCase("{}", "<mrow></mrow>"),
            MathCase("{a+b}c", "<mrow><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mi>c</mi></mrow>"),
        ])
    }

    func testScriptsAndPrimes() {
        checkCases([
            MathCase("x^2", "<msup><mi>x</mi><mn>2</mn></msup>"),
            MathCase("x_i", "<msub><mi>x</mi><mi>i</mi></msub>"),
            MathCase("x_i^2", "<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>"),
            MathCase("x^2_i", "<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>"),
            MathCase("x^{a+b}", "<msup><mi>x</mi><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow></msup>"),
            MathCase("x^{-1}", "<msup><mi>x</mi><mrow><mo>−</mo><mn>1</mn></mrow></msup>"),
            MathCase("x^12", "<mrow><msup><mi>x</mi><mn>1</mn></msup><mn>2</mn></mrow>"),
            MathCase("x^\\alpha", "<msup><mi>x</mi><mi>α</mi></msup>"),
            MathCase("e^{i\\pi}", "<msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup>"),
            MathCase("x'", "<msup><mi>x</mi><mo>′</mo></msup>"),
            MathCase("f''(x)", #"<mrow><msup><mi>f</mi><mo>″</mo></msup><mo stretchy="false">(</mo><mi>x</mi><mo stretchy="false">)</mo></mrow>"#),
            MathCase("x'''", "<msup><mi>x</mi><mo>‴</mo></msup>"),
            MathCase("y'^2", "<msup><mi>y</mi><mrow><mo>′</mo><mn>2</mn></mrow></msup>"),
            MathCase("z_1'", "<msubsup><mi>z</mi><mn>1</mn><mo>′</mo></msubsup>"),
            MathCase("x^\\prime", "<msup><mi>x</mi><mo>′</mo></msup>"),
            MathCase("^2", "<msup><mrow></mrow><mn>2</mn></msup>"),
            MathCase("{}_a^b X", "<mrow><msubsup><mrow></mrow><mi>a</mi><mi>b</mi></msubsup><mi>X</mi></mrow>"),
            MathCase("x_{i_1}", "<msub><mi>x</mi><msub><mi>i</mi><mn>1</mn></msub></msub>"),
            MathCase("(x)^2", #"<mrow><mo stretchy="false">(</mo><mi>x</mi><msup><mo stretchy="false">)</mo><mn>2</mn></msup></mrow>"#),
        ])
    }

    func testFractionsAndRoots() {
        checkCases([
            MathCase("\\frac{a}{b}", "<mfrac><mi>a</mi><mi>b</mi></mfrac>"),
            MathCase("\\frac12", "<mfrac><mn>1</mn><mn>2</mn></mfrac>"),
            MathCase("\\frac{a+b}{2}", "<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mn>2</mn></mfrac>"),
            MathCase("\\dfrac{a}{b}", #"<mstyle displaystyle="true" scriptlevel="0"><mfrac><mi>a</mi><mi>b</mi></mfrac></mstyle>"#),
            MathCase("\\tfrac{a}{b}", #"<mstyle displaystyle="false" scriptlevel="0"><mfrac><mi>a</mi><mi>b</mi></mfrac></mstyle>"#),
            MathCase("\\cfrac{1}{2}", #"<mstyle displaystyle="true" scriptlevel="0"><mfrac><mn>1</mn><mn>2</mn></mfrac></mstyle>"#),
            MathCase("{a \\over b}", "<mfrac><mi>a</mi><mi>b</mi></mfrac>"),
            MathCase("1 + {a+b \\over c}", "<mrow><mn>1</mn><mo>+</mo><mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mi>c</mi></mfrac></mrow>"),
            MathCase("a \\atop b", #"<mfrac linethickness="0"><mi>a</mi><mi>b</mi></mfrac>"#),
            MathCase("\\binom{n}{k}", "<mrow>\(open)(</mo><mfrac linethickness=\"0\"><mi>n</mi><mi>k</mi></mfrac>\(close))</mo></mrow>"),
            MathCase("{n \\choose k}", "<mrow>\(open)(</mo><mfrac linethickness=\"0\"><mi>n</mi><mi>k</mi></mfrac>\(close))</mo></mrow>"),
            MathCase("\\dbinom{n}{k}", "<mstyle displaystyle=\"true\" scriptlevel=\"0\"><mrow>\(open)(</mo><mfrac linethickness=\"0\"><mi>n</mi><mi>k</mi></mfrac>\(close))</mo></mrow></mstyle>"),
            MathCase("\\genfrac[]{0pt}{}{a}{b}", "<mrow>\(open)[</mo><mfrac linethickness=\"0em\"><mi>a</mi><mi>b</mi></mfrac>\(close)]</mo></mrow>"),
            MathCase("\\sqrt{x}", "<msqrt><mi>x</mi></msqrt>"),
            MathCase("\\sqrt{x+1}", "<msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt>"),
            MathCase("\\sqrt2", "<msqrt><mn>2</mn></msqrt>"),
            MathCase("\\sqrt[3]{x}", "<mroot><mi>x</mi><mn>3</mn></mroot>"),
            MathCase("\\sqrt[n+1]{x}", "<mroot><mi>x</mi><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></mroot>"),
            MathCase("\\frac{\\sqrt{a}}{\\frac{b}{c}}", "<mfrac><msqrt><mi>a</mi></msqrt><mfrac><mi>b</mi><mi>c</mi></mfrac></mfrac>"),
        ])
    }

    func testLargeOperatorsLimitsAndFunctions() {
        checkCases([
            MathCase("\\sum_{i=1}^n a_i", display: true,
                     "<mrow><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>i</mi></msub></mrow>"),
            MathCase("\\sum_{i=1}^n a_i",
                     "<mrow><msubsup><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></msubsup><msub><mi>a</mi><mi>i</mi></msub></mrow>"),
            MathCase("\\prod_k", display: true, "<munder><mo>∏</mo><mi>k</mi></munder>"),
            MathCase("\\bigcup_{i} A_i", display: true, "<mrow><munder><mo>⋃</mo><mi>i</mi></munder><msub><mi>A</mi><mi>i</mi></msub></mrow>"),
            MathCase("\\int_0^1 f", display: true, "<mrow><msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>f</mi></mrow>"),
            MathCase("\\oint_C", display: true, "<msub><mo>∮</mo><mi>C</mi></msub>"),
            MathCase("\\int\\limits_0^1", display: true, #"<munderover><mo movablelimits="false">∫</mo><mn>0</mn><mn>1</mn></munderover>"#),
            MathCase("\\sum\\limits_i", #"<munder><mo movablelimits="false">∑</mo><mi>i</mi></munder>"#),
            MathCase("\\sum\\nolimits_i", display: true, "<msub><mo>∑</mo><mi>i</mi></msub>"),
            MathCase("\\lim_{n\\to\\infty} a_n", display: true,
                     "<mrow><munder><mi>lim</mi><mrow><mi>n</mi><mo>→</mo><mi>∞</mi></mrow></munder>\(apply)<msub><mi>a</mi><mi>n</mi></msub></mrow>"),
            MathCase("\\lim_{x\\to 0}", "<msub><mi>lim</mi><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></msub>"),
            MathCase("\\limsup_n", display: true, "<munder><mi>lim\u{2009}sup</mi><mi>n</mi></munder>"),
            MathCase("\\sin x", "<mrow><mi>sin</mi>\(apply)<mi>x</mi></mrow>"),
            MathCase("\\sin(x)", #"<mrow><mi>sin</mi><mo stretchy="false">(</mo><mi>x</mi><mo stretchy="false">)</mo></mrow>"#),
            MathCase("\\sin^2 x", "<mrow><msup><mi>sin</mi><mn>2</mn></msup>\(apply)<mi>x</mi></mrow>"),
            MathCase("\\log_2 n", "<mrow><msub><mi>log</mi><mn>2</mn></msub>\(apply)<mi>n</mi></mrow>"),
            MathCase("\\cos\\theta + \\tan\\phi", "<mrow><mi>cos</mi>\(apply)<mi>θ</mi><mo>+</mo><mi>tan</mi>\(apply)<mi>ϕ</mi></mrow>"),
            MathCase("\\det A\\ln x\\exp y", "<mrow><mi>det</mi>\(apply)<mi>A</mi><mi>ln</mi>\(apply)<mi>x</mi><mi>exp</mi>\(apply)<mi>y</mi></mrow>"),
            MathCase("\\max(a,b)", #"<mrow><mi>max</mi><mo stretchy="false">(</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo stretchy="false">)</mo></mrow>"#),
            MathCase("\\operatorname{rank} A", "<mrow><mi>rank</mi>\(apply)<mi>A</mi></mrow>"),
            MathCase("\\operatorname{f}", #"<mi mathvariant="normal">f</mi>"#),
            MathCase("\\operatorname*{arg\\,max}_x f", display: true,
                     "<mrow><munder><mrow><mi>arg</mi><mspace width=\"0.1667em\"></mspace><mi>max</mi></mrow><mi>x</mi></munder>\(apply)<mi>f</mi></mrow>"),
            MathCase("a \\bmod b", #"<mrow><mi>a</mi><mo lspace="0.2222em" rspace="0.2222em">mod</mo><mi>b</mi></mrow>"#),
            MathCase("a \\pmod{n}", #"<mrow><mi>a</mi><mrow><mspace width="0.4444em"></mspace><mo stretchy="false">(</mo><mi>mod</mi><mspace width="0.3333em"></mspace><mi>n</mi><mo stretchy="false">)</mo></mrow></mrow>"#),
            MathCase("a \\pmod{n}", display: true, #"<mrow><mi>a</mi><mrow><mspace width="1em"></mspace><mo stretchy="false">(</mo><mi>mod</mi><mspace width="0.3333em"></mspace><mi>n</mi><mo stretchy="false">)</mo></mrow></mrow>"#),
            MathCase("\\mod n", #"<mrow><mspace width="0.6667em"></mspace><mi>mod</mi><mspace width="0.3333em"></mspace><mi>n</mi></mrow>"#),
        ])
    }

    func testDelimiters() {
        checkCases([
            MathCase("\\left( x \\right)", "<mrow>\(open)(</mo><mi>x</mi>\(close))</mo></mrow>"),
            MathCase("\\left( \\frac{a}{b} \\right)", "<mrow>\(open)(</mo><mfrac><mi>a</mi><mi>b</mi></mfrac>\(close))</mo></mrow>"),
            MathCase("\\left. x \\right|", "<mrow><mi>x</mi>\(close)|</mo></mrow>"),
            MathCase("\\left.\\right.", "<mrow></mrow>"),
            MathCase("\\left\\{ x \\middle| y \\right\\}",
                     "<mrow>\(open){</mo><mi>x</mi><mo lspace=\"0.0556em\" rspace=\"0.0556em\" stretchy=\"true\" symmetric=\"true\">|</mo><mi>y</mi>\(close)}</mo></mrow>"),
            MathCase("\\left< x \\right>", "<mrow>\(open)⟨</mo><mi>x</mi>\(close)⟩</mo></mrow>"),
            MathCase("\\left\\langle x \\right\\rangle", "<mrow>\(open)⟨</mo><mi>x</mi>\(close)⟩</mo></mrow>"),
            MathCase("\\left\\lfloor x \\right\\rceil", "<mrow>\(open)⌊</mo><mi>x</mi>\(close)⌉</mo></mrow>"),
            MathCase("\\left\\| v \\right\\|", "<mrow>\(open)‖</mo><mi>v</mi>\(close)‖</mo></mrow>"),
            MathCase("\\left[ -x \\right]", "<mrow>\(open)[</mo><mo form=\"prefix\">−</mo><mi>x</mi>\(close)]</mo></mrow>"),
            MathCase("\\left( x \\right)^2", "<msup><mrow>\(open)(</mo><mi>x</mi>\(close))</mo></mrow><mn>2</mn></msup>"),
            MathCase("\\left\\uparrow x \\right\\downarrow", "<mrow>\(open)↑</mo><mi>x</mi>\(close)↓</mo></mrow>"),
            MathCase("\\big( x \\big)",
                     #"<mrow><mo lspace="0" rspace="0" stretchy="true" symmetric="true" minsize="1.2em" maxsize="1.2em">(</mo><mi>x</mi><mo lspace="0" rspace="0" stretchy="true" symmetric="true" minsize="1.2em" maxsize="1.2em">)</mo></mrow>"#),
            MathCase("\\Bigl[", #"<mo form="prefix" stretchy="true" symmetric="true" minsize="1.8em" maxsize="1.8em">[</mo>"#),
            MathCase("\\biggr\\}", #"<mo form="postfix" stretchy="true" symmetric="true" minsize="2.4em" maxsize="2.4em">}</mo>"#),
            MathCase("\\Biggm|", #"<mo lspace="0.2778em" rspace="0.2778em" stretchy="true" symmetric="true" minsize="3em" maxsize="3em">|</mo>"#),
        ])
    }

    func testEnvironments() {
        let matrix = "<mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr><mtr><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mtr></mtable>"
        let left = #"<mtd style="text-align:left;justify-items:start">"#
        let second = #"<mtd style="text-align:left;justify-items:start;padding-left:1em">"#
        let right = #"<mtd style="text-align:right;justify-items:end;padding-right:0">"#
        let after = #"<mtd style="text-align:left;justify-items:start;padding-left:0">"#
        checkCases([
            MathCase("\\begin{matrix} a & b \\\\ c & d \\end{matrix}", matrix),
            MathCase("\\begin{matrix} a & b \\\\ c & d \\\\ \\end{matrix}", matrix),
            MathCase("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}", "<mrow>\(open)(</mo>\(matrix)\(close))</mo></mrow>"),
            MathCase("\\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix}", "<mrow>\(open)[</mo>\(matrix)\(close)]</mo></mrow>"),
            MathCase("\\begin{Bmatrix} a & b \\\\ c & d \\end{Bmatrix}", "<mrow>\(open){</mo>\(matrix)\(close)}</mo></mrow>"),
            MathCase("\\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix}", "<mrow>\(open)|</mo>\(matrix)\(close)|</mo></mrow>"),
            MathCase("\\begin{Vmatrix} a & b \\\\ c & d \\end{Vmatrix}", "<mrow>\(open)‖</mo>\(matrix)\(close)‖</mo></mrow>"),
            MathCase("\\begin{smallmatrix} a & b \\\\ c & d \\end{smallmatrix}", "<mstyle scriptlevel=\"1\">\(matrix)</mstyle>"),
            MathCase("\\begin{matrix} & a \\\\[2pt] b & \\end{matrix}",
                     "<mtable><mtr><mtd></mtd><mtd><mi>a</mi></mtd></mtr><mtr><mtd><mi>b</mi></mtd><mtd></mtd></mtr></mtable>"),
            MathCase("\\begin{cases} 1 & x > 0 \\\\ 0 & \\text{else} \\end{cases}",
                     "<mrow>\(open){</mo><mtable><mtr>\(left)<mn>1</mn></mtd>\(second)<mi>x</mi><mo>&gt;</mo><mn>0</mn></mtd></mtr>"
                        + "<mtr>\(left)<mn>0</mn></mtd>\(second)<mtext>else</mtext></mtd></mtr></mtable></mrow>"),
            MathCase("\\begin{rcases} a \\end{rcases}", "<mrow><mtable><mtr>\(left)<mi>a</mi></mtd></mtr></mtable>\(close)}</mo></mrow>"),
            MathCase("\\begin{aligned} a &= b \\\\ &= c \\end{aligned}",
                     "<mtable displaystyle=\"true\"><mtr>\(right)<mi>a</mi></mtd>\(after)<mo>=</mo><mi>b</mi></mtd></mtr>"
                        + "<mtr>\(right)</mtd>\(after)<mo>=</mo><mi>c</mi></mtd></mtr></mtable>"),
            MathCase("\\begin{alignedat}{1} x &= 1 \\end{alignedat}",
                     "<mtable displaystyle=\"true\"><mtr>\(right)<mi>x</mi></mtd>\(after)<mo>=</mo><mn>1</mn></mtd></mtr></mtable>"),
            MathCase("\\begin{gathered} a \\\\ b \\end{gathered}",
                     "<mtable displaystyle=\"true\"><mtr><mtd><mi>a</mi></mtd></mtr><mtr><mtd><mi>b</mi></mtd></mtr></mtable>"),
            MathCase("\\begin{array}{l|r} a & b \\\\ \\hline c & d \\end{array}",
                     "<mtable><mtr>\(left)<mi>a</mi></mtd><mtd style=\"text-align:right;justify-items:end;border-left:0.0667em solid\"><mi>b</mi></mtd></mtr>"
                        + "<mtr><mtd style=\"text-align:left;justify-items:start;border-top:0.0667em solid\"><mi>c</mi></mtd>"
                        + "<mtd style=\"text-align:right;justify-items:end;border-left:0.0667em solid;border-top:0.0667em solid\"><mi>d</mi></mtd></mtr></mtable>"),
            MathCase("\\begin{array}{|c|} \\hline a \\\\ \\hdashline \\end{array}",
                     "<mtable><mtr><mtd style=\"border-left:0.0667em solid;border-right:0.0667em solid;border-top:0.0667em solid;border-bottom:0.0667em dashed\"><mi>a</mi></mtd></mtr></mtable>"),
            MathCase("\\sum_{\\substack{i<n\\\\j<m}}",
                     "<msub><mo>∑</mo><mtable><mtr><mtd><mi>i</mi><mo>&lt;</mo><mi>n</mi></mtd></mtr><mtr><mtd><mi>j</mi><mo>&lt;</mo><mi>m</mi></mtd></mtr></mtable></msub>"),
            MathCase("a \\\\ b", "<mtable><mtr><mtd><mi>a</mi></mtd></mtr><mtr><mtd><mi>b</mi></mtd></mtr></mtable>"),
            MathCase("a \\\\ b", display: true,
                     "<mtable displaystyle=\"true\"><mtr><mtd><mi>a</mi></mtd></mtr><mtr><mtd><mi>b</mi></mtd></mtr></mtable>"),
            MathCase("x = \\begin{pmatrix} 1 \\end{pmatrix}",
                     "<mrow><mi>x</mi><mo>=</mo><mrow>\(open)(</mo><mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable>\(close))</mo></mrow></mrow>"),
        ])
    }

    func testAccents() {
        checkCases([
            MathCase("\\hat{x}", #"<mover accent="true"><mi>x</mi><mo stretchy="false">^</mo></mover>"#),
            MathCase("\\hat x", #"<mover accent="true"><mi>x</mi><mo stretchy="false">^</mo></mover>"#),
            MathCase("\\widehat{xy}", #"<mover accent="true"><mrow><mi>x</mi><mi>y</mi></mrow><mo stretchy="true">^</mo></mover>"#),
            MathCase("\\bar{x}", #"<mover accent="true"><mi>x</mi><mo stretchy="false">¯</mo></mover>"#),
            MathCase("\\overline{AB}", #"<mover accent="true"><mrow><mi>A</mi><mi>B</mi></mrow><mo stretchy="true">‾</mo></mover>"#),
            MathCase("\\underline{x}", #"<munder accentunder="true"><mi>x</mi><mo stretchy="true">_</mo></munder>"#),
            MathCase("\\vec{v}", #"<mover accent="true"><mi>v</mi><mo stretchy="false">→</mo></mover>"#),
            MathCase("\\dot{x}\\ddot{y}", #"<mrow><mover accent="true"><mi>x</mi><mo stretchy="false">˙</mo></mover><mover accent="true"><mi>y</mi><mo stretchy="false">¨</mo></mover></mrow>"#),
            MathCase("\\tilde{a}", #"<mover accent="true"><mi>a</mi><mo stretchy="false">~</mo></mover>"#),
            MathCase("\\widetilde{ab}", #"<mover accent="true"><mrow><mi>a</mi><mi>b</mi></mrow><mo stretchy="true">~</mo></mover>"#),
            MathCase("\\acute{e}\\grave{e}\\breve{u}\\check{c}",
                     #"<mrow><mover accent="true"><mi>e</mi><mo stretchy="false">´</mo></mover><mover accent="true"><mi>e</mi><mo stretchy="false">`</mo></mover><mover accent="true"><mi>u</mi><mo stretchy="false">˘</mo></mover><mover accent="true"><mi>c</mi><mo stretchy="false">ˇ</mo></mover></mrow>"#),
            MathCase("\\overrightarrow{AB}", #"<mover accent="true"><mrow><mi>A</mi><mi>B</mi></mrow><mo stretchy="true">→</mo></mover>"#),
            MathCase("\\overbrace{a+b}^{n}",
                     #"<mover><mover><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mo stretchy="true">⏞</mo></mover><mi>n</mi></mover>"#),
            MathCase("\\underbrace{x}_{\\text{n}}", #"<munder><munder><mi>x</mi><mo stretchy="true">⏟</mo></munder><mtext>n</mtext></munder>"#),
            MathCase("\\overbrace{x}", #"<mover><mi>x</mi><mo stretchy="true">⏞</mo></mover>"#),
        ])
    }

    func testFonts() {
        checkCases([
            MathCase("\\mathbb{R}", "<mi>ℝ</mi>"),
            MathCase("\\mathbb{R}^n", "<msup><mi>ℝ</mi><mi>n</mi></msup>"),
            MathCase("\\mathbb{NZ}", "<mi>ℕℤ</mi>"),
            MathCase("\\mathbb{A}", "<mi>\u{1D538}</mi>"),
            MathCase("\\mathbb 1", "<mn>\u{1D7D9}</mn>"),
            MathCase("\\mathbf{x}", "<mi>\u{1D431}</mi>"),
            MathCase("\\mathbf{Ax}", "<mi>\u{1D400}\u{1D431}</mi>"),
            MathCase("\\mathbf{12}", "<mn>\u{1D7CF}\u{1D7D0}</mn>"),
            MathCase("\\mathbf{\\Omega}", "<mi>\u{1D6C0}</mi>"),
            MathCase("\\mathcal{L}\\mathcal{A}", "<mi>ℒ\u{1D49C}</mi>"),
            MathCase("\\mathscr{F}", "<mi>ℱ</mi>"),
            MathCase("\\mathfrak{g}\\mathfrak{H}", "<mi>\u{1D524}ℌ</mi>"),
            MathCase("\\mathrm{d}x", #"<mrow><mi mathvariant="normal">d</mi><mi>x</mi></mrow>"#),
            MathCase("\\mathrm{sin}", "<mi>sin</mi>"),
            MathCase("\\mathrm{d\\pi}", "<mi>dπ</mi>"),
            MathCase("\\mathrm{\\pi}", #"<mi mathvariant="normal">π</mi>"#),
            MathCase("{\\rm d}x", #"<mrow><mi mathvariant="normal">d</mi><mi>x</mi></mrow>"#),
            MathCase("\\mathit{ab}\\mathit{h}", "<mi>\u{1D44E}\u{1D44F}ℎ</mi>"),
            MathCase("\\mathsf{A}\\mathtt{a}", "<mrow><mi>\u{1D5A0}</mi><mi>\u{1D68A}</mi></mrow>"),
            MathCase("\\boldsymbol{\\alpha}", "<mi>\u{1D736}</mi>"),
            MathCase("\\boldsymbol{x}\\bm{\\Gamma}", "<mi>\u{1D499}\u{1D6AA}</mi>"),
            MathCase("\\bm{1}", "<mn>\u{1D7CF}</mn>"),
            MathCase("\\mathbf{x+y}", "<mrow><mi>\u{1D431}</mi><mo>+</mo><mi>\u{1D432}</mi></mrow>"),
            MathCase("\\mathbf{v}_1", "<msub><mi>\u{1D42F}</mi><mn>1</mn></msub>"),
        ])
    }

    func testText() {
        checkCases([
            MathCase("\\text{if }", "<mtext>if\u{A0}</mtext>"),
            MathCase("\\text{a   b}", "<mtext>a b</mtext>"),
            MathCase("x \\text{ and } y", "<mrow><mi>x</mi><mtext>\u{A0}and\u{A0}</mtext><mi>y</mi></mrow>"),
            MathCase("\\text{for $x>0$}", "<mrow><mtext>for\u{A0}</mtext><mrow><mi>x</mi><mo>&gt;</mo><mn>0</mn></mrow></mrow>"),
            MathCase("\\text{}", "<mtext></mtext>"),
            MathCase("\\textbf{ab}", "<mtext>\u{1D41A}\u{1D41B}</mtext>"),
            MathCase("\\textit{x}\\texttt{y}", "<mrow><mtext>\u{1D465}</mtext><mtext>\u{1D6A2}</mtext></mrow>"),
            MathCase("\\textsf{\\textbf{H}}", "<mtext>\u{1D5DB}</mtext>"),
            MathCase("\\textbf{\\textrm{x}}", "<mtext>\u{1D431}</mtext>"),
            MathCase("\\textbf{\\textmd{x}}", "<mtext>x</mtext>"),
            MathCase("\\text{--- ``q'' -- `r'}", "<mtext>— “q” – ‘r’</mtext>"),
            MathCase("\\text{\\'e\\\"{o}}", "<mtext>e\u{301}o\u{308}</mtext>"),
            MathCase("\\text{a~b\\ c}", "<mtext>a\u{A0}b\u{A0}c</mtext>"),
            MathCase("\\text{50\\% \\$3 \\{\\}}", "<mtext>50% $3 {}</mtext>"),
            MathCase("\\text{a\\textbackslash b}", "<mtext>a\\b</mtext>"),
            MathCase("\\text{a<b \\& c}", "<mtext>a&lt;b &amp; c</mtext>"),
            MathCase("\\text{\\LaTeX}", "<mtext>LaTeX</mtext>"),
            MathCase("\\text{a\\quad b}", #"<mrow><mtext>a</mtext><mspace width="1em"></mspace><mtext>b</mtext></mrow>"#),
            MathCase("\\text{a {b} c}", "<mtext>a b c</mtext>"),
            MathCase("\\text x", "<mtext>x</mtext>"),
            MathCase("\\verb|x^2|", "<mtext>x^2</mtext>"),
            MathCase("\\verb*|a b|", "<mtext>a␣b</mtext>"),
            MathCase("\\TeX", "<mtext>TeX</mtext>"),
        ])
    }

    func testSpacing() {
        checkCases([
            MathCase("a\\,b", #"<mrow><mi>a</mi><mspace width="0.1667em"></mspace><mi>b</mi></mrow>"#),
            MathCase("\\:", #"<mspace width="0.2222em"></mspace>"#),
            MathCase("\\>", #"<mspace width="0.2222em"></mspace>"#),
            MathCase("\\;", #"<mspace width="0.2778em"></mspace>"#),
            MathCase("\\quad", #"<mspace width="1em"></mspace>"#),
            MathCase("\\qquad", #"<mspace width="2em"></mspace>"#),
            MathCase("\\enspace", #"<mspace width="0.5em"></mspace>"#),
            MathCase("\\!", #"<mspace style="margin-left:-0.1667em"></mspace>"#),
            MathCase("\\negthickspace", #"<mspace style="margin-left:-0.2778em"></mspace>"#),
            MathCase("a\\ b", "<mrow><mi>a</mi><mtext>\u{A0}</mtext><mi>b</mi></mrow>"),
            MathCase("a~b", "<mrow><mi>a</mi><mtext>\u{A0}</mtext><mi>b</mi></mrow>"),
            MathCase("\\hspace{2em}", #"<mspace width="2em"></mspace>"#),
            MathCase("\\hspace*{10pt}", #"<mspace width="1em"></mspace>"#),
            MathCase("\\hspace{1cm}", #"<mspace width="2.8453em"></mspace>"#),
            MathCase("\\hspace{-1em}", #"<mspace style="margin-left:-1em"></mspace>"#),
            MathCase("\\kern3mu", #"<mspace width="0.1667em"></mspace>"#),
            MathCase("\\mkern 18mu", #"<mspace width="1em"></mspace>"#),
            MathCase("\\kern{0.5ex}", #"<mspace width="0.2155em"></mspace>"#),
            MathCase("\\mskip-3mu x", #"<mrow><mspace style="margin-left:-0.1667em"></mspace><mi>x</mi></mrow>"#),
        ])
    }

    func testColorStyleAndSize() {
        checkCases([
            MathCase("\\color{red} x", #"<mstyle mathcolor="red"><mi>x</mi></mstyle>"#),
            MathCase("a {\\color{red} b} c", #"<mrow><mi>a</mi><mstyle mathcolor="red"><mi>b</mi></mstyle><mi>c</mi></mrow>"#),
            MathCase("a \\color{blue} b + c", #"<mrow><mi>a</mi><mstyle mathcolor="blue"><mi>b</mi><mo>+</mo><mi>c</mi></mstyle></mrow>"#),
            MathCase("\\textcolor{#ff0000}{x}y", ##"<mrow><mstyle mathcolor="#ff0000"><mi>x</mi></mstyle><mi>y</mi></mrow>"##),
            MathCase("\\textcolor{00FF00}{x}", ##"<mstyle mathcolor="#00FF00"><mi>x</mi></mstyle>"##),
            MathCase("\\colorbox{yellow}{hi}", #"<mstyle mathbackground="yellow"><mtext>hi</mtext></mstyle>"#),
            MathCase("\\displaystyle x", #"<mstyle displaystyle="true" scriptlevel="0"><mi>x</mi></mstyle>"#),
            MathCase("\\scriptstyle x", #"<mstyle displaystyle="false" scriptlevel="1"><mi>x</mi></mstyle>"#),
            MathCase("\\displaystyle\\sum_i", #"<mstyle displaystyle="true" scriptlevel="0"><munder><mo>∑</mo><mi>i</mi></munder></mstyle>"#),
            MathCase("\\textstyle\\sum_i", display: true, #"<mstyle displaystyle="false" scriptlevel="0"><msub><mo>∑</mo><mi>i</mi></msub></mstyle>"#),
            MathCase("\\large x", #"<mstyle mathsize="1.2em"><mi>x</mi></mstyle>"#),
            MathCase("\\Huge x", #"<mstyle mathsize="2.488em"><mi>x</mi></mstyle>"#),
        ])
    }

    func testLayoutAndNotation() {
        checkCases([
            MathCase("\\not=", "<mo>≠</mo>"),
            MathCase("a \\not\\in B", "<mrow><mi>a</mi><mo>∉</mo><mi>B</mi></mrow>"),
            MathCase("\\not\\subset", "<mo>⊄</mo>"),
            MathCase("\\not\\perp", "<mo>⊥\u{338}</mo>"),
            MathCase("\\overset{!}{=}", "<mover><mo>=</mo><mo>!</mo></mover>"),
            MathCase("\\underset{x}{y}", "<munder><mi>y</mi><mi>x</mi></munder>"),
            MathCase("a\\stackrel{\\text{def}}{=}b", "<mrow><mi>a</mi><mover><mo>=</mo><mtext>def</mtext></mover><mi>b</mi></mrow>"),
            MathCase("\\boxed{x}", #"<mrow style="border:0.0667em solid;padding:0.2em 0.3em"><mi>x</mi></mrow>"#),
            MathCase("\\phantom{x}", "<mphantom><mi>x</mi></mphantom>"),
            MathCase("\\hphantom{x}", #"<mpadded height="0" depth="0"><mphantom><mi>x</mi></mphantom></mpadded>"#),
            MathCase("\\vphantom{x}", #"<mpadded width="0"><mphantom><mi>x</mi></mphantom></mpadded>"#),
            MathCase("\\smash[b]{y}", #"<mpadded depth="0"><mi>y</mi></mpadded>"#),
            MathCase("\\mathrlap{x}", #"<mpadded width="0"><mi>x</mi></mpadded>"#),
            MathCase("\\tag{1} E = mc^2", display: true,
                     #"<mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup><mspace width="2em"></mspace><mtext>(1)</mtext></mrow>"#),
            MathCase("x \\tag*{A}", #"<mrow><mi>x</mi><mspace width="2em"></mspace><mtext>A</mtext></mrow>"#),
            MathCase("\\xrightarrow{f}",
                     #"<mover><mo stretchy="true">→</mo><mrow><mspace width="0.2778em"></mspace><mi>f</mi><mspace width="0.2778em"></mspace></mrow></mover>"#),
            MathCase("\\xleftarrow[u]{}",
                     #"<munderover><mo stretchy="true">←</mo><mrow><mspace width="0.2778em"></mspace><mi>u</mi><mspace width="0.2778em"></mspace></mrow><mrow><mspace width="0.2778em"></mspace><mspace width="0.2778em"></mspace></mrow></munderover>"#),
            MathCase("\\bra{\\psi}", "<mrow><mo stretchy=\"false\">⟨</mo><mi>ψ</mi>\(ordinary)|</mo></mrow>"),
            MathCase("\\Ket{\\psi}", "<mrow>\(open)|</mo><mi>ψ</mi>\(close)⟩</mo></mrow>"),
            MathCase("a\\mathrel{R}b", #"<mrow><mi>a</mi><mrow><mspace width="0.2778em"></mspace><mi>R</mi><mspace width="0.2778em"></mspace></mrow><mi>b</mi></mrow>"#),
            MathCase("a\\mathbin{+}b", #"<mrow><mi>a</mi><mo lspace="0.2222em" rspace="0.2222em">+</mo><mi>b</mi></mrow>"#),
            MathCase("\\rule{1em}{2pt}", #"<mspace width="1em" height="0.2em" mathbackground="currentcolor"></mspace>"#),
            MathCase("\\raisebox{0.5em}{up}", #"<mpadded voffset="0.5em"><mtext>up</mtext></mpadded>"#),
            MathCase("\\begingroup a \\endgroup", "<mi>a</mi>"),
            MathCase("\\relax x\\nobreak", "<mi>x</mi>"),
            MathCase("\\cancel{x}",
                     #"<mrow style="background:linear-gradient(to top right,transparent 46%,currentcolor 46%,currentcolor 54%,transparent 54%)"><mi>x</mi></mrow>"#),
            MathCase("\\char\"3B1 \\char65", "<mrow><mi>α</mi><mi>A</mi></mrow>"),
            MathCase("\\lq x\\rq", "<mrow><mi>‘</mi><mi>x</mi><mi>’</mi></mrow>"),
        ])
    }

    func testTheEntryPointsAgree() {
        let tex = "\\frac{a}{b} + \\sqrt{c}"
        let expected = TeXMath.mathML(tex, display: true)
        guard case .mathML(let element) = expected else { return XCTFail("\(expected)") }
        XCTAssertEqual(TeXMath.mathML("[\(tex)]".dropFirst().dropLast(), display: true), expected)
        XCTAssertEqual(TeXMath.mathML(utf8: Array(tex.utf8)[...], display: true), expected)
        // `write` and `writeHTML` append to what the buffer holds.
        var output = Array("<p>".utf8)
        XCTAssertNil(TeXMath.write(Array(tex.utf8)[...], display: true, into: &output))
        XCTAssertNil(TeXMath.writeHTML(Array(tex.utf8)[...], display: true, into: &output))
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "<p>" + element + element)
        XCTAssertNil(TeXMath.check(tex))
    }

    func testEmptyFormulaAndEscapedSource() {
        XCTAssertEqual(TeXMath.mathML("", display: false), .mathML(#"<math display="inline"></math>"#))
        XCTAssertEqual(TeXMath.mathML("  % only a comment", display: true), .mathML(#"<math display="block"></math>"#))
        XCTAssertEqual(TeXMath.mathML("a<b", display: false), .mathML(
            #"<math display="inline"><semantics><mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow><annotation encoding="application/x-tex">a&lt;b</annotation></semantics></math>"#))
        // The annotation keeps the source exactly, with ill-formed UTF-8 and NUL replaced.
        var output: [UInt8] = []
        let source: [UInt8] = Array("x".utf8) + [0x25, 0xFF, 0x00, 0x0A]
        XCTAssertNil(TeXMath.write(source[...], display: false, into: &output))
        XCTAssertEqual(String(decoding: output, as: UTF8.self),
                       "<math display=\"inline\"><semantics><mi>x</mi><annotation encoding=\"application/x-tex\">x%\u{FFFD}\u{FFFD}\n</annotation></semantics></math>")
    }
}
