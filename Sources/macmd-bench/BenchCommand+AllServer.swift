// The scenarios of `macmd-bench all` on one language server and one notebook: start-up, link
// completion, references and renames, a scripted editing session and (MacMD's own request)
// the preview. Each result has its samples in milliseconds and the server's peak RSS so far
// (VmHWM of /proc/PID/status).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchReport
import CommandLineIO
import JSON
import JSONRPC

struct ServerBench {
    typealias Bench = BenchCommand
    let name: String
    let arguments: [String]
    let notebook: BenchNotebook
    let options: BenchCommand.AllOptions
    var results: [BenchResult] = []
    var client: BenchCommand.LSPClient?

    init(name: String, arguments: [String], notebook: BenchNotebook, options: BenchCommand.AllOptions) {
        self.name = name
        self.arguments = arguments
        self.notebook = notebook
        self.options = options
    }

    var size: Int { notebook.notes.count }

    mutating func add(_ scenario: String, _ title: String, _ group: String, unit: String = "ms", notes: Int? = -1,
                      _ outcome: BenchOutcome, figures: [String: Double] = [:]) {
        let peak = client?.status("VmHWM:")
        results.append(BenchResult(scenario: scenario, title: title, group: group, subject: name,
                                   notes: notes == -1 ? size : notes, unit: unit, outcome: outcome,
                                   peakResidentBytes: outcome.samples == nil ? nil : peak, figures: figures))
    }

    func log(_ text: String) { StandardStreams.writeError("    " + text + "\n") }

    static let scenarios: [(id: String, title: String, group: String)] = [
        ("startup.initialize", "Start-up until `initialize` answers", "startup"),
        ("startup.index", "Start-up until the index is complete", "startup"),
        ("completion.wiki-link", "Completion of `[[`", "completion"),
        ("completion.md-link", "Completion of `](`", "completion"),
        ("completion.hash-tag", "Completion of `#`", "completion"),
        ("completion.snippet-prefix", "Completion of a snippet prefix", "completion"),
        ("navigation.references", "References of a heading linked 1,000 times", "navigation"),
        ("navigation.rename-heading", "Rename a heading linked from 500 notes", "navigation"),
        ("navigation.will-rename-files", "`willRenameFiles` of a note linked from 500 notes", "navigation"),
        ("editing.diagnostics", "Keystroke → fresh diagnostics", "editing"),
        ("editing.completion", "Keystroke → completion list", "editing"),
    ]

    static func title(_ id: String) -> (title: String, group: String) {
        scenarios.first { $0.id == id }.map { ($0.title, $0.group) } ?? (id, "")
    }

    mutating func add(_ scenario: String, _ outcome: BenchOutcome, figures: [String: Double] = [:]) {
        let (title, group) = Self.title(scenario)
        add(scenario, title, group, outcome, figures: figures)
    }

    mutating func run(preview: Bool) {
        startUp()
        guard client != nil else {
            for scenario in Self.scenarios.dropFirst(2) { add(scenario.id, .failed("the server did not start")) }
            return
        }
        completion()
        navigation()
        editing()
        if preview { self.preview() }
        client?.stop()
        client = nil
    }

    // MARK: start-up

    /// `options.starts` fresh servers: until `initialize` answers, and until the end of the
    /// index's `$/progress`; the last one stays for the other scenarios.
    mutating func startUp() {
        var initialize: [Double] = []
        var index: [Double] = []
        var rssAfter: [Double] = []
        var noProgress = false
        var failure: String?
        for start in 0..<options.starts {
            client?.stop()
            client = nil
            let began = Bench.now()
            guard var server = Bench.LSPClient.start(arguments, in: notebook.root) else {
                failure = "could not start \(arguments[0])"
                break
            }
            guard let answer = server.call("initialize", Bench.LSPClient.initializeParams(root: notebook.root), seconds: options.timeout),
                  case .success(let result) = answer.result else {
                failure = "no answer to initialize in \(Bench.format(options.timeout, 0)) s"
                server.stop()
                break
            }
            initialize.append((Bench.now() - began) * 1000)
            server.capabilities = result["capabilities"] ?? .null
            server.notify("initialized", [:])
            // An index reports its progress; a server that begins none in two seconds has none.
            let sawBegin = server.wait(until: Bench.now() + 2) { !$0.progressBegun.isEmpty }
            if sawBegin {
                if server.wait(until: began + max(options.timeout, 600), for: \.indexed) {
                    index.append((Bench.now() - began) * 1000)
                    if let rss = server.status("VmRSS:") { rssAfter.append(Double(rss)) }
                } else {
                    failure = "the index did not finish"
                }
            } else {
                noProgress = true
            }
            client = server
            log("start \(start + 1): initialize \(Bench.format(initialize.last ?? 0, 1)) ms" + (index.count > start ? ", index \(Bench.format(index.last ?? 0, 0)) ms" : ""))
        }
        if initialize.isEmpty {
            add("startup.initialize", .failed(failure ?? "no start"))
            add("startup.index", .failed(failure ?? "no start"))
            client?.stop()
            client = nil
            return
        }
        add("startup.initialize", .measured(initialize))
        if !index.isEmpty {
            // /proc may not say (another system): then the figure is left out, not made up.
            let rss = rssAfter.isEmpty ? nil : rssAfter.sorted()[rssAfter.count / 2]
            add("startup.index", .measured(index),
                figures: rss.map { ["rssAfterIndexBytes": $0, "rssPerNoteBytes": $0 / Double(size + 1)] } ?? [:])
        } else if noProgress {
            add("startup.index", .notApplicable("reports no indexing progress (indexes no workspace)"),
                figures: client?.status("VmRSS:").map { ["rssAfterStartBytes": Double($0)] } ?? [:])
        } else {
            add("startup.index", .failed(failure ?? "the index did not finish"))
        }
    }

    // MARK: editing helpers

    /// Opens `path` and returns it as the client holds it.
    mutating func open(_ path: String, text: String? = nil) -> OpenNote {
        let note = OpenNote(uri: notebook.uri(path), text: text ?? notebook.text(path))
        client?.notify("textDocument/didOpen", ["textDocument": ["uri": .string(note.uri), "languageId": "markdown",
                                                                  "version": .int(Int64(note.version)), "text": .string(note.text)]])
        return note
    }

    /// Types `inserted` at the end of `note` (incremental when the server takes it).
    mutating func append(_ inserted: String, to note: inout OpenNote) {
        let end = note.end
        note.text += inserted
        note.version += 1
        let change: JSONValue = client?.incremental == true
            ? ["range": Self.range(end, end), "text": .string(inserted)]
            : ["text": .string(note.text)]
        client?.notify("textDocument/didChange", ["textDocument": ["uri": .string(note.uri), "version": .int(Int64(note.version))],
                                                  "contentChanges": [change]])
    }

    /// Takes the last `count` characters (ASCII) back.
    mutating func removeLast(_ count: Int, from note: inout OpenNote) {
        let end = note.end
        note.text.removeLast(count)
        note.version += 1
        let start = note.end
        let change: JSONValue = client?.incremental == true
            ? ["range": Self.range(start, end), "text": ""]
            : ["text": .string(note.text)]
        client?.notify("textDocument/didChange", ["textDocument": ["uri": .string(note.uri), "version": .int(Int64(note.version))],
                                                  "contentChanges": [change]])
    }

    static func position(_ p: (line: Int, character: Int)) -> JSONValue {
        ["line": .int(Int64(p.line)), "character": .int(Int64(p.character))]
    }

    static func range(_ start: (line: Int, character: Int), _ end: (line: Int, character: Int)) -> JSONValue {
        ["start": position(start), "end": position(end)]
    }

    /// The number of items of a completion answer.
    static func items(_ result: JSONValue) -> Int {
        result.arrayValue?.count ?? result["items"]?.arrayValue?.count ?? 0
    }

    /// The completion request for the end of `note`, as an editor sends it after typing `typed`.
    func completionParams(_ note: OpenNote, typed: Character?) -> JSONValue {
        let context: JSONValue
        if let typed, client?.triggerCharacters.contains(String(typed)) == true {
            context = ["triggerKind": 2, "triggerCharacter": .string(String(typed))]
        } else {
            context = ["triggerKind": 1]
        }
        return ["textDocument": ["uri": .string(note.uri)], "position": Self.position(note.end), "context": context]
    }

    // MARK: completion

    /// `[[`, `](`, `#` and a snippet prefix typed on a new last line of a note, then completion;
    /// the text taken back after each round.
    mutating func completion() {
        let path = notebook.notes[notebook.notes.count / 3]
        var note = open(path)
        if !note.text.hasSuffix("\n") { append("\n", to: &note) }
        let triggers: [(id: String, text: String)] = [
            ("completion.wiki-link", "See [["), ("completion.md-link", "See [the note]("), ("completion.hash-tag", "Filed under #"), ("completion.snippet-prefix", "t"),
        ]
        for trigger in triggers {
            var samples: [Double] = []
            var items: [Double] = []
            var failure: String?
            var rounds = ScenarioRounds(warmUp: options.warmUp, planned: options.rounds, budget: options.budget)
            while let counted = rounds.next() {
                append(trigger.text, to: &note)
                let params = completionParams(note, typed: trigger.text.last)
                guard let answer = client?.call("textDocument/completion", params, seconds: options.timeout) else {
                    failure = "no answer in \(Bench.format(options.timeout, 0)) s"
                    break
                }
                removeLast(trigger.text.count, from: &note)
                switch answer.result {
                case .success(let result):
                    if counted {
                        samples.append(answer.seconds * 1000)
                        items.append(Double(Self.items(result)))
                    }
                case .failure(let error):
                    failure = error.code == -32601 ? nil : "error \(error.code)"
                }
                if failure != nil || answer.result.isMethodNotFound { break }
            }
            let mostItems = items.max() ?? 0
            if let failure {
                add(trigger.id, .failed(failure))
            } else if samples.isEmpty || mostItems == 0 {
                add(trigger.id, .notApplicable("offers nothing here"))
            } else {
                add(trigger.id, .measured(samples), figures: rounds.figures(["items": items.sorted()[items.count / 2]]))
            }
        }
        client?.notify("textDocument/didClose", ["textDocument": ["uri": .string(note.uri)]])
    }

    // MARK: navigation

    /// References of the hub's heading, its rename and the hub's `willRenameFiles`, each repeated
    /// (the edits are computed, not applied).
    mutating func navigation() {
        let hub = open(BenchNotebook.hubPath)
        let position = Self.position(BenchNotebook.hubHeadingPosition)
        let rounds = max(1, options.rounds / 2)
        let newURI = notebook.uri("hub-renamed.md")
        let requests: [(id: String, method: String, capability: String?, params: JSONValue)] = [
            ("navigation.references", "textDocument/references", "referencesProvider",
             ["textDocument": ["uri": .string(hub.uri)], "position": position, "context": ["includeDeclaration": false]]),
            ("navigation.rename-heading", "textDocument/rename", "renameProvider",
             ["textDocument": ["uri": .string(hub.uri)], "position": position, "newName": "Hub Heading Renamed"]),
            ("navigation.will-rename-files", "workspace/willRenameFiles", nil,
             ["files": [["oldUri": .string(hub.uri), "newUri": .string(newURI)]]]),
        ]
        for request in requests {
            if let capability = request.capability, client?.supports(capability) != true {
                add(request.id, .notApplicable("no \(capability)"))
                continue
            }
            if request.capability == nil, client?.capabilities["workspace"]?["fileOperations"]?["willRename"] == nil {
                add(request.id, .notApplicable("no fileOperations.willRename"))
                continue
            }
            var samples: [Double] = []
            var found: [Double] = []
            var outcome: BenchOutcome?
            var scenario = ScenarioRounds(warmUp: options.warmUp, planned: rounds, budget: options.budget)
            while let counted = scenario.next() {
                guard let answer = client?.call(request.method, request.params, seconds: options.timeout) else {
                    outcome = .failed("no answer in \(Bench.format(options.timeout, 0)) s")
                    break
                }
                guard case .success(let result) = answer.result else {
                    outcome = .failed(answer.result.errorText)
                    break
                }
                if counted {
                    samples.append(answer.seconds * 1000)
                    found.append(Double(Self.locations(result)))
                }
            }
            let most = found.max() ?? 0
            if let outcome {
                add(request.id, outcome)
            } else if most == 0 {
                add(request.id, .notApplicable("finds nothing to return or edit"))
            } else {
                add(request.id, .measured(samples), figures: scenario.figures([request.id == "navigation.references" ? "locations" : "files": most]))
            }
        }
        client?.notify("textDocument/didClose", ["textDocument": ["uri": .string(hub.uri)]])
    }

    /// Locations of a references answer, or files a workspace edit touches.
    static func locations(_ result: JSONValue) -> Int {
        if let array = result.arrayValue { return array.count }
        if let changes = result["changes"]?.objectValue { return changes.count }
        if let changes = result["documentChanges"]?.arrayValue {
            return Set(changes.compactMap { $0["textDocument"]?["uri"]?.stringValue ?? $0["oldUri"]?.stringValue }).count
        }
        return 0
    }

    // MARK: editing session

    /// `options.keystrokes` keystrokes across five open notes (switching every 40): each a
    /// `didChange`, then at once the diagnostics request (pull) and, where a link or tag was
    /// begun, completion; each timed from the keystroke to its answer. A server that only pushes
    /// diagnostics is timed to the push of that version.
    mutating func editing() {
        let count = notebook.notes.count
        let paths = (1...5).map { k in notebook.notes[min(count - 1, count * k / 6)] }
        var notes = paths.map { open($0) }
        for i in notes.indices where !notes[i].text.hasSuffix("\n") { append("\n", to: &notes[i]) }
        let pulls = client?.pullsDiagnostics == true
        var diagnostics: [Double] = []
        var completions: [Double] = []
        var failure: String?
        var position = Array(repeating: 0, count: notes.count)
        var rounds = ScenarioRounds(warmUp: options.warmUp * 4, planned: options.keystrokes, budget: options.budget)
        var keystroke = -1
        while let counted = rounds.next() {
            keystroke += 1
            let which = (keystroke / 40) % notes.count
            let phrase = "Notes on [[hub#Hub Heading]] and #topic/bench, see [the hub](\(notebook.hubLink(from: paths[which]))).\n"
            let characters = Array(phrase)
            let typed = characters[position[which] % characters.count]
            position[which] += 1
            let before = String(notes[which].text.suffix(1))
            let start = Bench.now()
            append(String(typed), to: &notes[which])
            let begun = (typed == "[" && before == "[") || typed == "#" || (typed == "(" && before == "]")
            var ids: [RequestID] = []
            var diagnosticID: RequestID?
            var completionID: RequestID?
            let pushesBefore = client?.pushes[notes[which].uri]?.count ?? 0
            if pulls, let id = client?.request("textDocument/diagnostic", ["textDocument": ["uri": .string(notes[which].uri)]]) {
                diagnosticID = id
                ids.append(id)
            }
            let params = completionParams(notes[which], typed: typed)
            if begun, let id = client?.request("textDocument/completion", params) {
                completionID = id
                ids.append(id)
            }
            guard let answers = client?.answers(to: ids, deadline: start + options.timeout) else {
                failure = "no answer in \(Bench.format(options.timeout, 0)) s"
                break
            }
            if let diagnosticID, let answer = answers[diagnosticID] {
                guard case .success = answer.result else {
                    failure = answer.result.errorText
                    break
                }
                if counted { diagnostics.append((answer.at - start) * 1000) }
            } else if !pulls {
                let uri = notes[which].uri
                let version = notes[which].version
                let arrived = client?.wait(until: start + 1) { client in
                    guard let push = client.pushes[uri], push.count > pushesBefore else { return false }
                    return push.version.map { $0 >= version } ?? true
                } ?? false
                if arrived, counted { diagnostics.append((Bench.now() - start) * 1000) }
            }
            if let completionID, let answer = answers[completionID], case .success(let result) = answer.result,
               Self.items(result) > 0, counted {
                completions.append((answer.at - start) * 1000)
            }
        }
        if let failure {
            add("editing.diagnostics", .failed(failure))
            add("editing.completion", .failed(failure))
        } else {
            add("editing.diagnostics", diagnostics.isEmpty ? .notApplicable("sends no diagnostics for the edited notes") : .measured(diagnostics),
                figures: rounds.figures(["keystrokes": Double(rounds.counted)]))
            add("editing.completion", completions.isEmpty ? .notApplicable("offers nothing after `[[`, `#` or `](`") : .measured(completions),
                figures: rounds.figures([:]))
        }
        for note in notes { client?.notify("textDocument/didClose", ["textDocument": ["uri": .string(note.uri)]]) }
    }

    // MARK: preview

    /// `macmd/preview` of generated notes of 10 KB, 100 KB and 1 MB, each round after a change of
    /// the whole text (a new version), timed from the change to the last byte of the answer.
    mutating func preview() {
        for (bytes, label) in [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1m")] {
            let id = "preview.\(label)"
            let title = "`macmd/preview` of a \(bytes >= 1_000_000 ? "1 MB" : "\(bytes / 1000) KB") note"
            guard name == "macmd" else {
                add(id, title, "preview", .notApplicable("no live preview request (`macmd/preview` is MacMD's)"))
                continue
            }
            let text = BenchCommand.largeNote(bytes: bytes)
            var note = open("bench-preview-\(label).md", text: text)
            var samples: [Double] = []
            var failure: String?
            var rounds = ScenarioRounds(warmUp: options.warmUp, planned: bytes >= 1_000_000 ? max(1, options.rounds / 2) : options.rounds,
                                        budget: options.budget)
            while let counted = rounds.next() {
                note.version += 1
                let start = Bench.now()
                client?.notify("textDocument/didChange", ["textDocument": ["uri": .string(note.uri), "version": .int(Int64(note.version))],
                                                          "contentChanges": [["text": .string(note.text)]]])
                let requestID = client?.request("macmd/preview", ["textDocument": ["uri": .string(note.uri)]])
                guard let requestID, let answer = client?.answers(to: [requestID], deadline: start + options.timeout)?[requestID] else {
                    failure = "no answer in \(Bench.format(options.timeout, 0)) s"
                    break
                }
                guard case .success(let result) = answer.result, result["html"]?.stringValue != nil else {
                    failure = "no HTML in the answer"
                    break
                }
                if counted { samples.append((answer.at - start) * 1000) }
            }
            add(id, title, "preview", failure.map { .failed($0) } ?? .measured(samples), figures: rounds.figures(["noteBytes": Double(text.utf8.count)]))
            client?.notify("textDocument/didClose", ["textDocument": ["uri": .string(note.uri)]])
        }
    }
}

/// The rounds of one scenario on one subject: `warmUp` thrown away, then up to `planned`
/// counted, within `budget` seconds. Warming up stops at half the budget; counting stops at the
/// budget once three rounds (or all planned, if fewer) are counted, or one when a single round
/// takes longer than the whole budget (a linter that reads 50,000 notes in four minutes).
/// A cut shows in the figures.
struct ScenarioRounds {
    let warmUp: Int
    let planned: Int
    let budget: Double
    let start = BenchCommand.now()
    private(set) var warmedUp = 0
    private(set) var counted = 0
    /// When the round under way began, and the longest round so far.
    private var roundBegan: Double?
    private var longest = 0.0
    static let minimumCounted = 3

    init(warmUp: Int, planned: Int, budget: Double) {
        self.warmUp = warmUp
        self.planned = planned
        self.budget = budget
    }

    /// The next round: false for a warm-up round, true for a counted one, nil when it is done.
    mutating func next() -> Bool? {
        let now = BenchCommand.now()
        if let roundBegan { longest = max(longest, now - roundBegan) }
        roundBegan = now
        let elapsed = now - start
        if warmedUp < warmUp && elapsed < budget / 2 {
            warmedUp += 1
            return false
        }
        let minimum = longest > budget ? 1 : min(planned, Self.minimumCounted)
        guard counted < planned, elapsed < budget || counted < minimum else { return nil }
        counted += 1
        return true
    }

    /// `figures`, with the rounds planned when the budget stopped the scenario early.
    func figures(_ figures: [String: Double]) -> [String: Double] {
        guard counted < planned else { return figures }
        return figures.merging(["roundsPlanned": Double(planned)]) { mine, _ in mine }
    }
}

extension Result where Success == JSONValue, Failure == ResponseError {
    var isMethodNotFound: Bool {
        if case .failure(let error) = self { return error.code == -32601 }
        return false
    }

    var errorText: String {
        if case .failure(let error) = self { return "error \(error.code)" }
        return "no result"
    }
}
