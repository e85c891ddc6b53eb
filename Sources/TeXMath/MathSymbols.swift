// The symbol commands, as data: one line a symbol, `class text name…`.
//
// The class is a `SymbolClass` code (`i` italic letter, `I` upright letter, `m` ordinary, `o`
// ordinary operator, `|` fence, `b` binary, `r` relation, `v` vertical arrow, `p` punctuation,
// `(` open, `)` close, `L` large operator, `N` integral, `f` function, `F` function with limits,
// `d` dots, `P` prime); the text is what the element holds, `=` for the command's own name (each
// name on the line its own text). The characters are those of unicode-math and the MathML Core
// operator dictionary.

enum MathSymbols {
    // l10n-exempt: symbol data (classes, characters, TeX command names), not text for people
    static let data = """
        i α alpha
        i β beta
        i γ gamma
        i δ delta
        i ϵ epsilon
        i ε varepsilon
        i ζ zeta
        i η eta
        i θ theta
        i ϑ vartheta thetasym
        i ι iota
        i κ kappa
        i ϰ varkappa
        i λ lambda
        i μ mu
        i ν nu
        i ξ xi
        i ο omicron
        i π pi
        i ϖ varpi
        i ρ rho
        i ϱ varrho
        i σ sigma
        i ς varsigma
        i τ tau
        i υ upsilon
        i ϕ phi
        i φ varphi
        i χ chi
        i ψ psi
        i ω omega
        i ϝ digamma
        I Α Alpha
        I Β Beta
        I Γ Gamma
        I Δ Delta
        I Ε Epsilon
        I Ζ Zeta
        I Η Eta
        I Θ Theta
        I Ι Iota
        I Κ Kappa
        I Λ Lambda
        I Μ Mu
        I Ν Nu
        I Ξ Xi
        I Ο Omicron
        I Π Pi
        I Ρ Rho
        I Σ Sigma
        I Τ Tau
        I Υ Upsilon
        I Φ Phi
        I Χ Chi
        I Ψ Psi
        I Ω Omega
        i Γ varGamma
        i Δ varDelta
        i Θ varTheta
        i Λ varLambda
        i Ξ varXi
        i Π varPi
        i Σ varSigma
        i Υ varUpsilon
        i Φ varPhi
        i Ψ varPsi
        i Ω varOmega
        i ı imath
        i ȷ jmath
        I ∇ nabla
        m ∂ partial
        m ℵ aleph alef alefsym
        m ℶ beth
        m ℷ gimel
        m ℸ daleth
        m ℓ ell
        m ℏ hbar hslash
        m ℘ wp weierp
        m ℜ Re real
        m ℑ Im image
        m ⅁ Game
        m Ⅎ Finv
        m 𝕜 Bbbk
        m ð eth
        m ∞ infty infin
        m ∅ emptyset empty varnothing
        m ℕ N natnums
        m ℝ R Reals reals
        m ℤ Z
        m ℂ Complex cnums
        m ∁ complement
        m ∀ forall
        m ∃ exists exist
        m ∄ nexists
        m ¬ neg lnot
        m ⊤ top
        m ⊥ bot
        m ∠ angle
        m ∡ measuredangle
        m ∢ sphericalangle
        m △ triangle
        m ▽ triangledown
        m □ Box square
        m ■ blacksquare
        m ◊ lozenge Diamond
        m ⧫ blacklozenge
        m ★ bigstar
        m ♣ clubsuit clubs
        m ♢ diamondsuit diamonds
        m ♡ heartsuit hearts
        m ♠ spadesuit spades
        m ♭ flat
        m ♮ natural
        m ♯ sharp
        m ✓ checkmark
        m † dag dagger
        m ‡ ddag ddagger Dagger
        m ✠ maltese
        m © copyright
        m ® circledR
        m Ⓢ circledS
        m £ pounds mathsterling
        m ¥ yen
        m ° degree
        m √ surd
        m ℧ mho
        m ╱ diagup
        m ╲ diagdown
        m ▲ blacktriangle
        m ▼ blacktriangledown
        m ◀ blacktriangleleft
        m ▶ blacktriangleright
        m ⦵ minuso
        m $ $
        m % %
        m # #
        m & &
        m _ _
        m § S sect
        m ¶ P
        m ‘ lq
        m ’ rq
        P ′ prime
        m ‵ backprime
        o \\ backslash
        | | vert lvert rvert
        | ‖ Vert lVert rVert |
        ( ( lparen
        ) ) rparen
        ( [ lbrack
        ) ] rbrack
        ( { { lbrace
        ) } } rbrace
        ( ⟨ langle lang
        ) ⟩ rangle rang
        ( ⌊ lfloor
        ) ⌋ rfloor
        ( ⌈ lceil
        ) ⌉ rceil
        ( ⟮ lgroup
        ) ⟯ rgroup
        ( ⎰ lmoustache
        ) ⎱ rmoustache
        ( ⌜ ulcorner
        ) ⌝ urcorner
        ( ⌞ llcorner
        ) ⌟ lrcorner
        ( ⟦ llbracket
        ) ⟧ rrbracket
        ( ⦃ lBrace
        ) ⦄ rBrace
        r < lt
        r > gt
        b ± pm plusmn
        b ∓ mp
        b × times
        b ÷ div
        b ⋅ cdot sdot centerdot
        b ∗ ast
        b ⋆ star
        b ∘ circ
        b ∙ bullet
        b ⊕ oplus
        b ⊖ ominus
        b ⊗ otimes
        b ⊘ oslash
        b ⊙ odot
        b ∪ cup
        b ∩ cap
        b ⋓ Cup doublecup
        b ⋒ Cap doublecap
        b ⊔ sqcup
        b ⊓ sqcap
        b ⊎ uplus
        b ∧ wedge land
        b ∨ vee lor
        b ∖ setminus smallsetminus
        b ≀ wr
        b ⨿ amalg
        b ⊼ barwedge
        b ⊻ veebar
        b ⩞ doublebarwedge
        b ⋏ curlywedge
        b ⋎ curlyvee
        b ⊞ boxplus
        b ⊟ boxminus
        b ⊠ boxtimes
        b ⊡ boxdot
        b ⊛ circledast
        b ⊚ circledcirc
        b ⊝ circleddash
        b ∔ dotplus
        b ⋇ divideontimes
        b ⊺ intercal
        b ⋉ ltimes
        b ⋊ rtimes
        b ⋋ leftthreetimes
        b ⋌ rightthreetimes
        b ⋖ lessdot
        b ⋗ gtrdot
        b ⊲ lhd
        b ⊳ rhd
        b ⊴ unlhd
        b ⊵ unrhd
        b ◯ bigcirc
        b △ bigtriangleup
        b ▽ bigtriangledown
        b ◃ triangleleft
        b ▹ triangleright
        b ⋄ diamond
        b & And
        p : colon
        p ⋅ cdotp
        p . ldotp
        r ≤ le leq
        r ≥ ge geq
        r ≠ ne neq
        r ≦ leqq
        r ≧ geqq
        r ⩽ leqslant
        r ⩾ geqslant
        r ⪕ eqslantless
        r ⪖ eqslantgtr
        r ≪ ll
        r ≫ gg
        r ⋘ lll llless
        r ⋙ ggg gggtr
        r ≲ lesssim
        r ≳ gtrsim
        r ⪅ lessapprox
        r ⪆ gtrapprox
        r ≶ lessgtr
        r ≷ gtrless
        r ⋚ lesseqgtr
        r ⋛ gtreqless
        r ⪋ lesseqqgtr
        r ⪌ gtreqqless
        r ≺ prec
        r ≻ succ
        r ⪯ preceq
        r ⪰ succeq
        r ≼ preccurlyeq
        r ≽ succcurlyeq
        r ⋞ curlyeqprec
        r ⋟ curlyeqsucc
        r ≾ precsim
        r ≿ succsim
        r ⪷ precapprox
        r ⪸ succapprox
        r ≡ equiv
        r ∼ sim thicksim
        r ≃ simeq
        r ≅ cong
        r ≈ approx thickapprox
        r ≊ approxeq
        r ∽ backsim
        r ⋍ backsimeq
        r ≂ eqsim
        r ≍ asymp
        r ∝ propto varpropto
        r ≐ doteq
        r ≑ Doteq doteqdot
        r ≒ fallingdotseq
        r ≓ risingdotseq
        r ≖ eqcirc
        r ≗ circeq
        r ≜ triangleq
        r ≏ bumpeq
        r ≎ Bumpeq
        r ≬ between
        r ∈ in isin
        r ∉ notin
        r ∋ ni owns
        r ∌ notni
        r ⊂ subset sub
        r ⊃ supset
        r ⊆ subseteq sube
        r ⊇ supseteq supe
        r ⫅ subseteqq
        r ⫆ supseteqq
        r ⋐ Subset
        r ⋑ Supset
        r ⊏ sqsubset
        r ⊐ sqsupset
        r ⊑ sqsubseteq
        r ⊒ sqsupseteq
        r ∣ mid shortmid
        r ∥ parallel shortparallel
        r ⊥ perp
        r ⊨ models vDash
        r ⊢ vdash
        r ⊣ dashv
        r ⊩ Vdash
        r ⊪ Vvdash
        r ⌣ smile smallsmile
        r ⌢ frown smallfrown
        r ⋈ bowtie Join
        r ⋔ pitchfork
        r ⊸ multimap
        r ∍ backepsilon
        r ∴ therefore
        r ∵ because
        r ⊲ vartriangleleft
        r ⊳ vartriangleright
        r ⊴ trianglelefteq
        r ⊵ trianglerighteq
        r △ vartriangle
        r ≔ coloneqq
        r ⩴ Coloneqq
        r ≕ eqqcolon
        r =∷ Eqqcolon
        r ∶− coloneq
        r ∷− Coloneq
        r ∹ eqcolon
        r −∷ Eqcolon
        r ∶≈ colonapprox
        r ∷≈ Colonapprox
        r ∶∼ colonsim
        r ∷∼ Colonsim
        r ∷ dblcolon
        r ∶ vcentcolon ratio
        r ≮ nless
        r ≯ ngtr
        r ≰ nleq
        r ≱ ngeq
        r ≦̸ nleqq
        r ≧̸ ngeqq
        r ⩽̸ nleqslant
        r ⩾̸ ngeqslant
        r ⪇ lneq
        r ⪈ gneq
        r ≨ lneqq lvertneqq
        r ≩ gneqq gvertneqq
        r ⋦ lnsim
        r ⋧ gnsim
        r ⪉ lnapprox
        r ⪊ gnapprox
        r ⊀ nprec
        r ⊁ nsucc
        r ⋠ npreceq
        r ⋡ nsucceq
        r ⪵ precneqq
        r ⪶ succneqq
        r ⋨ precnsim
        r ⋩ succnsim
        r ⪹ precnapprox
        r ⪺ succnapprox
        r ≁ nsim
        r ≇ ncong
        r ∤ nmid nshortmid
        r ∦ nparallel nshortparallel
        r ⊬ nvdash
        r ⊭ nvDash
        r ⊮ nVdash
        r ⊯ nVDash
        r ⋪ ntriangleleft
        r ⋫ ntriangleright
        r ⋬ ntrianglelefteq
        r ⋭ ntrianglerighteq
        r ⊈ nsubseteq
        r ⊉ nsupseteq
        r ⫅̸ nsubseteqq
        r ⫆̸ nsupseteqq
        r ⊊ subsetneq varsubsetneq
        r ⊋ supsetneq varsupsetneq
        r ⫋ subsetneqq varsubsetneqq
        r ⫌ supsetneqq varsupsetneqq
        r ← leftarrow gets larr
        r → rightarrow to rarr
        r ↔ leftrightarrow harr lrarr
        r ⇐ Leftarrow lArr Larr
        r ⇒ Rightarrow rArr Rarr
        r ⇔ Leftrightarrow hArr Harr lrArr Lrarr
        r ⟺ iff Longleftrightarrow
        r ⟹ implies Longrightarrow
        r ⟸ impliedby Longleftarrow
        r ⟵ longleftarrow
        r ⟶ longrightarrow
        r ⟷ longleftrightarrow
        r ↦ mapsto
        r ⟼ longmapsto
        r ↩ hookleftarrow
        r ↪ hookrightarrow
        r ↗ nearrow
        r ↘ searrow
        r ↙ swarrow
        r ↖ nwarrow
        r ↼ leftharpoonup
        r ↽ leftharpoondown
        r ⇀ rightharpoonup
        r ⇁ rightharpoondown
        r ↿ upharpoonleft
        r ↾ upharpoonright restriction
        r ⇃ downharpoonleft
        r ⇂ downharpoonright
        r ⇌ rightleftharpoons
        r ⇋ leftrightharpoons
        r ⇇ leftleftarrows
        r ⇉ rightrightarrows
        r ⇆ leftrightarrows
        r ⇄ rightleftarrows
        r ⇈ upuparrows
        r ⇊ downdownarrows
        r ⇚ Lleftarrow
        r ⇛ Rrightarrow
        r ↞ twoheadleftarrow
        r ↠ twoheadrightarrow
        r ↢ leftarrowtail
        r ↣ rightarrowtail
        r ↫ looparrowleft
        r ↬ looparrowright
        r ↶ curvearrowleft
        r ↷ curvearrowright
        r ↺ circlearrowleft
        r ↻ circlearrowright
        r ↰ Lsh
        r ↱ Rsh
        r ↭ leftrightsquigarrow
        r ⇝ rightsquigarrow leadsto
        r ⇠ dashleftarrow
        r ⇢ dashrightarrow
        r ↚ nleftarrow
        r ↛ nrightarrow
        r ⇍ nLeftarrow
        r ⇏ nRightarrow
        r ↮ nleftrightarrow
        r ⇎ nLeftrightarrow
        v ↑ uparrow uarr
        v ↓ downarrow darr
        v ↕ updownarrow
        v ⇑ Uparrow uArr Uarr
        v ⇓ Downarrow dArr Darr
        v ⇕ Updownarrow
        L ∑ sum
        L ∏ prod
        L ∐ coprod
        L ⋃ bigcup
        L ⋂ bigcap
        L ⋁ bigvee
        L ⋀ bigwedge
        L ⨁ bigoplus
        L ⨂ bigotimes
        L ⨀ bigodot
        L ⨄ biguplus
        L ⨆ bigsqcup
        L ∫ intop
        N ∫ int smallint
        N ∬ iint
        N ∭ iiint
        N ∮ oint
        N ∯ oiint
        N ∰ oiiint
        f = arcsin arccos arctan arctg arcctg arg ch cos cosec cosh cot cotg coth csc ctg cth deg
        f = dim exp hom ker lg ln log sec sh sin sinh tan tanh tg th
        F = det gcd inf lim max min Pr sup plim
        F lim\u{2009}inf liminf
        F lim\u{2009}sup limsup
        F arg\u{2009}max argmax
        F arg\u{2009}min argmin
        d … ldots dots dotsc dotso mathellipsis
        d ⋯ cdots dotsb dotsi dotsm
        d ⋮ vdots
        d ⋱ ddots
        """
}
