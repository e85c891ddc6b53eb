// `$/progress` for one long job (a cold index), when the client shows progress; silent
// otherwise. Reports go out at most every 5 %, so a large notebook does not flood the client.

import Dispatch
import LSPTypes
import Synchronization

final class ProgressReporter: Sendable {
    let server: Server
    let token: ProgressToken?
    let title: String
    let lastPercent = Mutex(-1)

    init(server: Server, title: String, token: String) {
        self.server = server
        self.title = title
        guard server.state.withLock({ $0.client.supportsWorkDoneProgress }) else {
            self.token = nil
            return
        }
        let token = ProgressToken.string(token)
        self.token = token
        // The token may be used once the client has answered; wait for that, briefly.
        let answered = DispatchSemaphore(value: 0)
        server.send(WorkDoneProgressCreateRequest.self, WorkDoneProgressCreateParams(token: token)) { _ in answered.signal() }
        _ = answered.wait(timeout: .now() + .seconds(2))
    }

    func begin(_ message: String) {
        send(.begin(WorkDoneProgressBegin(title: title, cancellable: false, message: message, percentage: 0)))
    }

    func report(done: Int, total: Int) {
        guard total > 0 else { return }
        let percent = done * 100 / total
        let changed = lastPercent.withLock { last -> Bool in
            guard percent >= last + 5 || (percent == 100 && last != 100) else { return false }
            last = percent
            return true
        }
        if changed { send(.report(WorkDoneProgressReport(message: "\(done)/\(total) notes", percentage: percent))) }
    }

    func end(_ message: String) {
        send(.end(WorkDoneProgressEnd(message: message)))
    }

    private func send(_ value: WorkDoneProgress) {
        guard let token else { return }
        server.send(ProgressNotification.self, ProgressParams(token: token, value: value))
    }
}
