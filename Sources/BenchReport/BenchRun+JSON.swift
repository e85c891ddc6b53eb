// BenchRun as JSON: `results.json` of `macmd-bench all`, read back to make the README's
// performance section. Every result keeps its raw samples and, for convenience, their spread.

import JSON

extension BenchRun {
    /// The run as a JSON value (members in a fixed order when serialized: `JSON.serialize`
    /// sorts nothing, so the writer below orders them).
    public var jsonValue: JSONValue {
        .object([
            "date": .string(date),
            "macmd": .string(macmdVersion),
            "machine": .object([
                "cpu": .string(machine.cpuModel), "cores": .int(Int64(machine.cores)),
                "memoryBytes": .int(Int64(machine.memoryBytes)), "system": .string(machine.system),
            ]),
            "notebookSizes": .array(notebookSizes.map { .int(Int64($0)) }),
            "seed": .int(Int64(seed)),
            "command": .string(command),
            "subjects": .array(subjects.map { subject in
                var object: [String: JSONValue] = ["name": .string(subject.name), "kind": .string(subject.kind)]
                if let version = subject.version { object["version"] = .string(version) }
                if let skipped = subject.skipped { object["skipped"] = .string(skipped) }
                return .object(object)
            }),
            "results": .array(results.map(\.jsonValue)),
        ])
    }

    /// The run as indented JSON text, members sorted by name (the same run, the same bytes).
    public func json() -> String {
        var out = ""
        BenchRun.write(jsonValue, indent: "", into: &out)
        return out + "\n"
    }

    /// Reads a run written by `json()`; nil when the text is not one.
    public init?(json text: String) {
        guard let value = try? JSON.parse(text), let machine = value["machine"],
              let date = value["date"]?.stringValue, let version = value["macmd"]?.stringValue,
              let results = value["results"]?.arrayValue else { return nil }
        self.init(date: date, macmdVersion: version,
                  machine: BenchMachine(cpuModel: machine["cpu"]?.stringValue ?? "?", cores: machine["cores"]?.intValue ?? 0,
                                        memoryBytes: machine["memoryBytes"]?.intValue ?? 0, system: machine["system"]?.stringValue ?? "?"),
                  notebookSizes: value["notebookSizes"]?.arrayValue?.compactMap(\.intValue) ?? [],
                  seed: value["seed"]?.intValue ?? 0, command: value["command"]?.stringValue ?? "",
                  subjects: (value["subjects"]?.arrayValue ?? []).compactMap { subject in
                      guard let name = subject["name"]?.stringValue else { return nil }
                      return BenchSubject(name: name, kind: subject["kind"]?.stringValue ?? "",
                                          version: subject["version"]?.stringValue, skipped: subject["skipped"]?.stringValue)
                  },
                  results: results.compactMap(BenchResult.init(json:)))
    }

    private static func write(_ value: JSONValue, indent: String, into out: inout String) {
        switch value {
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            let inner = indent + "  "
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                out += inner + String(decoding: JSON.serialize(.string(member.key)), as: UTF8.self) + ": "
                write(member.value, indent: inner, into: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        case .array(let elements) where elements.contains(where: { $0.objectValue != nil || $0.arrayValue != nil }):
            out += "[\n"
            let inner = indent + "  "
            for (index, element) in elements.enumerated() {
                out += inner
                write(element, indent: inner, into: &out)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        default:
            out += String(decoding: JSON.serialize(value), as: UTF8.self)
        }
    }
}

extension BenchResult {
    var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "scenario": .string(scenario), "title": .string(title), "group": .string(group),
            "subject": .string(subject), "unit": .string(unit),
        ]
        if let notes { object["notes"] = .int(Int64(notes)) }
        if let peakResidentBytes { object["peakResidentBytes"] = .int(Int64(peakResidentBytes)) }
        if !figures.isEmpty { object["figures"] = .object(figures.mapValues { .double($0) }) }
        switch outcome {
        case .measured(let samples):
            // Already to three decimals (`BenchOutcome.asWritten`): read back, the same run.
            object["samples"] = .array(samples.map { .double($0) })
            if let spread = Spread(samples) {
                object["spread"] = .object([
                    "count": .int(Int64(spread.count)), "min": .double(spread.min), "median": .double(spread.median),
                    "p95": .double(spread.p95), "p99": .double(spread.p99), "max": .double(spread.max),
                ])
            }
        case .notApplicable(let why): object["notApplicable"] = .string(why)
        case .skipped(let why): object["skipped"] = .string(why)
        case .failed(let why): object["failed"] = .string(why)
        }
        return .object(object)
    }

    init?(json value: JSONValue) {
        guard let scenario = value["scenario"]?.stringValue, let subject = value["subject"]?.stringValue else { return nil }
        let outcome: BenchOutcome
        if let samples = value["samples"]?.arrayValue {
            outcome = .measured(samples.compactMap(\.doubleValue))
        } else if let why = value["notApplicable"]?.stringValue {
            outcome = .notApplicable(why)
        } else if let why = value["skipped"]?.stringValue {
            outcome = .skipped(why)
        } else {
            outcome = .failed(value["failed"]?.stringValue ?? "no figures")
        }
        self.init(scenario: scenario, title: value["title"]?.stringValue ?? scenario, group: value["group"]?.stringValue ?? "",
                  subject: subject, notes: value["notes"]?.intValue, unit: value["unit"]?.stringValue ?? "",
                  outcome: outcome, peakResidentBytes: value["peakResidentBytes"]?.intValue,
                  figures: (value["figures"]?.objectValue ?? [:]).compactMapValues(\.doubleValue))
    }
}
