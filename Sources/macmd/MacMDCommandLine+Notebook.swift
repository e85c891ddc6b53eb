// A notebook folder indexed for a command (`export`, `search`, `stats`): the same scan, rules
// and index as the language server's, with what the scan says written to standard error.

import Localization
import NotebookIDE
import NotebookWorkspace

extension MacMDCommandLine {
    /// The notebook at `path`, indexed; nil, with the reason written after `command`'s name
    /// (the folder named as the writer gave it, `named`, when that differs), when the scan
    /// refuses the folder. The scan's log lines are written too.
    static func indexedNotebook(_ path: String, named: String? = nil, command: String) -> NotebookFolder? {
        let (folder, log, refusal) = NotebookFolder.indexed(path: path)
        if let refusal {
            writeError(command, LocalizedText("cli.check.error.cannotCheck", .string(named ?? path), .text(refusal.text)))
            return nil
        }
        for line in log { writeError(command, line) }
        return folder
    }

    /// A snapshot of the one notebook `folder`, for the features a command asks of it.
    static func snapshot(of folder: NotebookFolder) -> AnalysisSnapshot {
        var host = AnalysisHost()
        host.addFolder(folder.path)
        host.updateFolder(folder.path) { $0 = folder }
        return host.snapshot()
    }
}
