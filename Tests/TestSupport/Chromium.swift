// A real browser for the tests: headless Chromium driven through the DevTools protocol over a
// pipe (`--remote-debugging-pipe`: commands on its fd 3, answers and events on its fd 4, each
// message JSON ended by a NUL byte), so no WebSocket and no network port is needed.
//
// Invariants: every wait has a deadline (a test never hangs on the browser); the browser runs
// with a profile in a fresh temporary folder and is closed (then killed) by `close()`; a missing
// Chromium is an error that says how to install it (`.ci/run` does), never a skip.

import Foundation

/// A headless Chromium and one page in it.
public final class Chromium {
    /// Where the browser came from: `MACMD_CHROMIUM`, else `chromium` (Debian) on `PATH`.
    public static func executable() throws -> String {
        if let path = ProcessInfo.processInfo.environment["MACMD_CHROMIUM"], !path.isEmpty { return path }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        throw Clients.missing("Chromium (the preview tests load the page in a real browser; or set MACMD_CHROMIUM to a Chromium or Chrome)",
                              install: "apt-get install -y chromium")
    }

    /// An event the page sent (`Log.entryAdded`, `Runtime.exceptionThrown`, …).
    public struct Event {
        public var method: String
        public var params: [String: Any]
    }

    private let process = Process()
    private let toBrowser = Pipe()
    private let fromBrowser = Pipe()
    private let profile: URL
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?
    /// Every event received so far, in order.
    public private(set) var events: [Event] = []
    /// How long one command may take.
    public var timeout: TimeInterval = 30

    /// Starts the browser with a blank page of `width`×`height` CSS pixels.
    public init(width: Int = 900, height: Int = 1200) throws {
        let executable = try Chromium.executable()
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                     "--disable-extensions", "--hide-scrollbars", "--remote-debugging-pipe",
                     "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "about:blank"]
        // fd 3 reads what we write to its stdin, fd 4 writes to its stdout; the browser's own
        // stdout and stdin are then let go.
        let quoted = ([executable] + flags).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(quoted) 3<&0 4>&1 1>/dev/null 0</dev/null"]
        process.standardInput = toBrowser
        process.standardOutput = fromBrowser
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw TestSupportError("Chromium made no page: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw TestSupportError("Chromium gave no session: \(attached)") }
        self.session = session
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] { _ = try call(domain) }
    }

    deinit { close() }

    /// Loads `url` and waits for its `load` event.
    public func load(_ url: URL) throws {
        let before = events.count
        _ = try call("Page.navigate", ["url": url.absoluteString])
        let deadline = Date().addingTimeInterval(timeout)
        while !events[before...].contains(where: { $0.method == "Page.loadEventFired" }) {
            guard let message = try read(until: deadline) else { throw TestSupportError("\(url) did not load in \(timeout) s") }
            record(message)
        }
    }

    /// Clicks the first element `selector` finds, as a reader does, and waits for the page it
    /// leads to to load.
    public func click(_ selector: String) throws {
        let before = events.count
        let quoted = "'" + selector.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        guard try evaluate("(() => { const e = document.querySelector(\(quoted)); if (!e) return false; e.click(); return true })()") as? Bool == true else {
            throw TestSupportError("no element \(selector) to click in the page")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while !events[before...].contains(where: { $0.method == "Page.loadEventFired" }) {
            guard let message = try read(until: deadline) else { throw TestSupportError("clicking \(selector) loaded nothing in \(timeout) s") }
            record(message)
        }
    }

    /// The value of the JavaScript `expression` (which must give something JSON can carry),
    /// run in the page by the DevTools protocol (the page's Content-Security-Policy does not
    /// apply to it).
    public func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] { throw TestSupportError("the page's script failed: \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// A PNG of the window, or of the whole page (beyond the window when it is longer).
    public func screenshot(wholePage: Bool = false) throws -> Data {
        let shot = try call("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": wholePage])
        guard let text = shot["data"] as? String, let data = Data(base64Encoded: text) else {
            throw TestSupportError("Chromium gave no screenshot")
        }
        return data
    }

    /// Messages the page logged at `level` or worse (`error`, `warning`): Content-Security-Policy
    /// violations (source `security`), failed loads (`network`), script errors.
    public func logEntries() throws -> [[String: Any]] {
        // Anything still in the pipe is read first (the log comes as events, in no fixed order
        // with the page's load).
        _ = try call("Runtime.evaluate", ["expression": "0"])
        var entries = events.compactMap { $0.method == "Log.entryAdded" ? $0.params["entry"] as? [String: Any] : nil }
        entries += events.compactMap { $0.method == "Runtime.exceptionThrown" ? $0.params : nil }
        return entries
    }

    /// Closes the browser (killing it when it does not go) and removes its profile.
    public func close() {
        if process.isRunning {
            _ = try? send("Browser.close", [:], inSession: false)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: profile)
    }

    // MARK: The protocol

    /// Sends a command (to the page, once there is one) and returns its result.
    @discardableResult
    public func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        let id = try send(method, params, inSession: session != nil && !method.hasPrefix("Target.") && !method.hasPrefix("Browser."))
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let message = try read(until: deadline) else { throw TestSupportError("Chromium did not answer \(method) in \(timeout) s") }
            if message["id"] as? Int == id {
                if let error = message["error"] { throw TestSupportError("Chromium refused \(method): \(error)") }
                return message["result"] as? [String: Any] ?? [:]
            }
            record(message)
        }
    }

    private func send(_ method: String, _ params: [String: Any], inSession: Bool) throws -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if inSession, let session { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        try toBrowser.fileHandleForWriting.write(contentsOf: data)
        return nextID
    }

    private func record(_ message: [String: Any]) {
        if let method = message["method"] as? String { events.append(Event(method: method, params: message["params"] as? [String: Any] ?? [:])) }
    }

    /// The next message, or nil at the deadline.
    private func read(until deadline: Date) throws -> [String: Any]? {
        let descriptor = fromBrowser.fileHandleForReading.fileDescriptor
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let body = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                return try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw TestSupportError("Chromium closed its pipe (it exited)") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
