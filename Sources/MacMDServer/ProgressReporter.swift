// `$/progress` for one long job (a cold index), when the client shows progress; silent
// otherwise. Reports go out at most every 5 %, so a large notebook does not flood the client.

import Dispatch
import LSPTypes
import Localization
import Locks

final class ProgressReporter: Sendable {
    let server: Server
    let token: ProgressToken?
    let title: LocalizedText
    /// The language of the client's texts.
    let locale: SupportedLocale
    let lastPercent = Locked(-1)

    init(server: Server, title: LocalizedText, token: String) {
        self.server = server
        self.title = title
        locale = server.locale
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

    func begin(_ message: LocalizedText) {
        send(.begin(WorkDoneProgressBegin(title: title.string(in: locale), cancellable: false, message: message.string(in: locale), percentage: 0)))
    }

    func report(done: Int, total: Int) {
        guard total > 0 else { return }
        let percent = done * 100 / total
        let changed = lastPercent.withLock { last -> Bool in
            guard percent >= last + 5 || (percent == 100 && last != 100) else { return false }
            last = percent
            return true
        }
        if changed { send(.report(WorkDoneProgressReport(message: LocalizedText("server.progress.indexing.report", .integer(total), .integer(done)).string(in: locale),
                                                        percentage: percent))) }
    }

    func end(_ message: LocalizedText) {
        send(.end(WorkDoneProgressEnd(message: message.string(in: locale))))
    }

    private func send(_ value: WorkDoneProgress) {
        guard let token else { return }
        server.send(ProgressNotification.self, ProgressParams(token: token, value: value))
    }
}
