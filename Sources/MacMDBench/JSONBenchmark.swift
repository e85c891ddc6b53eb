// JSONBenchmark: times the codec on a generated 1 MB `textDocument/didOpen`, the largest
// message an editor routinely sends. Meant for a release build; its tests run it small.

import JSON
import JSONRPC

/// A micro benchmark of the JSON codec and framer on a 1 MB `didOpen` notification.
public enum JSONBenchmark {
    /// A `didOpen` notification whose text is about `textBytes` bytes of Markdown (with quotes,
    /// backslashes, tabs, non-ASCII and emoji, so escapes and UTF-8 are exercised).
    public static func didOpenMessage(textBytes: Int = 1 << 20) -> Message {
        // l10n-exempt: benchmark input, not shown to anyone
        let paragraph = """
            ## Heading with "quotes" and a back\\slash
            Some *emphasis*, `code`, a [[wiki link]] and #tag — café, naïve, 日本語, 🎉.
            \tIndented\tline with tabs and a very long run of plain ASCII text to fill the line up.
            - [ ] task item
            - [x] done item

            """
        var text = ""
        text.reserveCapacity(textBytes + paragraph.utf8.count)
        while text.utf8.count < textBytes { text += paragraph }
        return .notification(method: "textDocument/didOpen", params: [
            "textDocument": [
                "uri": "file:///tmp/notebook/large-note.md",
                "languageId": "markdown",
                "version": 1,
                "text": .string(text),
            ],
        ])
    }

    /// Runs the benchmark (1 MB, 50 iterations) and returns a short report, one line per
    /// measurement.
    public static func run() -> String {
        run(textBytes: 1 << 20, iterations: 50)
    }

    /// Runs the benchmark on a text of about `textBytes` bytes, `iterations` times.
    public static func run(textBytes: Int, iterations requested: Int) -> String {
        let message = didOpenMessage(textBytes: textBytes)
        let body = JSON.serialize(message.json)
        let frame = Framing.frame(body)
        let iterations = max(1, requested)
        let clock = ContinuousClock()

        var parseTimes: [Duration] = []
        var serializeTimes: [Duration] = []
        var frameTimes: [Duration] = []
        var checksum = 0
        for _ in 0..<iterations {
            var parsed: JSONValue = .null
            parseTimes.append(clock.measure {
                parsed = (try? JSON.parse(body)) ?? .null
            })
            var output: [UInt8] = []
            serializeTimes.append(clock.measure {
                output = JSON.serialize(parsed)
            })
            checksum &+= output.count
            frameTimes.append(clock.measure {
                var framer = MessageFramer()
                // Feed in read-sized chunks, as the connection does.
                var offset = 0
                while offset < frame.count {
                    let end = min(offset + (1 << 17), frame.count)
                    framer.append(Array(frame[offset..<end]))
                    offset = end
                }
                if case .body(let bytes)? = framer.next() { checksum &+= bytes.count }
            })
        }
        let roundTrips = (try? JSON.parse(body)).map { JSON.serialize($0) == body } ?? false

        func line(_ name: String, _ times: [Duration]) -> String {
            let sorted = times.sorted()
            let median = milliseconds(sorted[sorted.count / 2])
            let best = milliseconds(sorted[0])
            let megabytesPerSecond = Double(body.count) / 1_048_576 / (median / 1000)
            return "\(name): median \(format(median)) ms, best \(format(best)) ms, \(format(megabytesPerSecond)) MB/s"
        }
        // l10n-exempt: benchmark report for developers (`macmd-bench json`)
        return """
            JSON codec, didOpen of \(body.count) bytes, \(iterations) iterations (checksum \(checksum))
            \(line("parse    ", parseTimes))
            \(line("serialize", serializeTimes))
            \(line("frame    ", frameTimes))
            round trip byte-identical: \(roundTrips)
            """
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private static func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "\(value)" }
        let integer = Int64(hundredths)
        let fraction = abs(integer % 100)
        return "\(integer / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
