// `initialize`, `initialized` and the editor's settings.
//
// Invariants: `initialize` reads no disk (the notebooks it names are opened and scanned on the
// `disk` queue); the capabilities it answers are the registry's; settings changes reach every
// notebook and their diagnostics at once.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSON
import JSONRPC
import LSPTypes
import Localization
import NotebookIDE
import NotebookWorkspace

extension Server {
    func initialize(_ params: InitializeParams) -> Result<InitializeResult, ResponseError> {
        let encoding = PositionEncoding.negotiate(offered: params.positionEncodings)
        var folders = params.workspaceFolders.compactMap(FileURI.path(of:))
        if folders.isEmpty, let root = params.rootURI.flatMap(FileURI.path(of:)) { folders = [root] }
        let language = LocaleChoice.forServer(initializeLocale: params.locale,
                                              initializationOptionsLocale: params.initializationOptions?["locale"]?.stringValue,
                                              environment: configuration.environment)
        // The session's strings are read on another core while the client reads this answer and
        // says `initialized`, so neither the answer nor the scan's first progress
        // report waits for a whole read (a report that comes meanwhile waits for this one's end).
        let locale = language.locale
        workers.async { _ = Catalog.builtIn(for: locale) }
        state.withLock { state in
            state.lifecycle = .running
            state.client = ClientInfo(encoding: encoding, supportsConfiguration: params.supportsConfiguration,
                                      supportsDynamicConfigurationRegistration: params.supportsDynamicConfigurationRegistration,
                                      supportsWorkDoneProgress: params.supportsWorkDoneProgress,
                                      supportsPullDiagnostics: params.supportsPullDiagnostics,
                                      supportsDiagnosticRefresh: params.supportsDiagnosticRefresh,
                                      supportsCodeLensRefresh: params.supportsCodeLensRefresh,
                                      supportsSemanticTokensRefresh: params.supportsSemanticTokensRefresh,
                                      supportsWatchedFilesRegistration: params.supportsWatchedFilesRegistration,
                                      supportsDocumentChanges: params.supportsDocumentChanges, supportsSnippets: params.supportsSnippets,
                                      supportsChangeAnnotations: params.supportsChangeAnnotations,
                                      supportsShowMessageRequest: params.supportsShowMessageRequest,
                                      wantsPlainTextHover: params.wantsPlainTextHover,
                                      supportsCodeActionResolve: params.supportsCodeActionResolve,
                                      name: params.clientName,
                                      language: LocaleChoice.dateLanguage(clientLocale: params.locale, environment: configuration.environment),
                                      locale: language.locale)
            state.initializationOptions = params.initializationOptions
            // Told after `initialized`: a client shows no message before `initialize` is answered.
            state.localeNotice = language.notice?.string(in: language.locale)
            Server.setEditorLayers(&state)
            // Fixed for the session: the capabilities below announce what is on.
            state.disabledFeatures = state.host.workspace.editorConfiguration.disabledFeatures
            for folder in folders { state.host.addFolder(folder) }
        }
        if folders.isEmpty {
            logger.info("no workspace folder: single-file mode (each note's own folder)") // l10n-exempt: developer log
            logEditorConfigurationProblems()
        }
        logger.info("initialized by \(params.clientName ?? "an unnamed client"); positions in \(encoding.rawValue); messages in \(language.locale.rawValue)") // l10n-exempt: developer log

        var capabilities = Server.registry.capabilitiesObject(without: state.withLock { $0.disabledFeatures })
        if case .object(var members) = capabilities {
            members["positionEncoding"] = .string(encoding.rawValue)
            capabilities = .object(members)
        }
        return .success(InitializeResult(capabilities: capabilities, serverInfo: ServerInfo(name: "macmd", version: configuration.version)))
    }

    func afterInitialized() {
        let (client, localeNotice) = state.withLock { state in
            defer { state.localeNotice = nil }
            return (state.client, state.localeNotice)
        }
        if let localeNotice { send(ShowMessageNotification.self, ShowMessageParams(type: .info, message: localeNotice)) }
        if client.supportsDynamicConfigurationRegistration {
            send(RegisterCapabilityRequest.self, RegistrationParams(registrations: [
                Registration(id: "macmd-configuration", method: DidChangeConfigurationNotification.method,
                             registerOptions: DidChangeConfigurationRegistrationOptions(section: "macmd").json),
            ])) { [logger] result in
                if case .failure(let error) = result { logger.warn("registerCapability failed: \(error.message)") } // l10n-exempt: developer log
            }
        }
        requestConfiguration()
        // The notebooks' scans started when `initialize` was answered (`openAndScanNotebooks`);
        // a client registers capabilities once it has said `initialized`.
        if client.supportsWatchedFilesRegistration { registerWatchers() }
    }

    /// Opens the workspace's notebooks (their settings and snippets) and cold-indexes them, on
    /// the disk queue: from the answer to `initialize` on. (With no notebook, no thread is
    /// started for nothing to do.)
    func openAndScanNotebooks() {
        guard !state.withLock({ $0.host.workspace.folders.isEmpty }) else { return }
        disk.async { [self] in
            openFolders()
            scanFolders()
        }
    }

    /// Asks the client to report changes to the files that make or shape notebooks.
    func registerWatchers() {
        // Every file: notes, and any other file a link may name (an image, a recording, `LICENSE`).
        // `.gitignore` files and the notebook's `.macmd.json` decide which files belong.
        let watchers = DidChangeWatchedFilesRegistrationOptions(watchers: ["**/*", "**/", "**/.gitignore", "**/.macmd.json",
                                                                           "**/.macmd/snippets/*.json"].map {
            FileSystemWatcher(globPattern: $0)
        })
        send(RegisterCapabilityRequest.self, RegistrationParams(registrations: [
            Registration(id: "macmd-watched-files", method: DidChangeWatchedFilesNotification.method, registerOptions: watchers.json),
        ])) { [logger] result in
            if case .failure(let error) = result { logger.warn("watching files failed: \(error.message)") } // l10n-exempt: developer log
        }
    }

    func requestConfiguration() {
        guard state.withLock({ $0.client.supportsConfiguration }) else { return }
        send(WorkspaceConfigurationRequest.self, ConfigurationParams(items: [ConfigurationItem(section: "macmd")])) { [self] result in
            if case .success(let values) = result, let first = values.first, !first.isNull { apply(settings: first) }
        }
    }

    /// New editor settings (section `macmd`): every notebook's configuration is read again.
    func apply(settings: JSONValue) {
        let noFolders = state.withLock { state -> Bool in
            state.editorSettings = settings
            // The `macmd` section overrides `initializationOptions`, the language included:
            // messages from now on (and the diagnostics published again below) use it.
            if let text = settings["locale"]?.stringValue, !text.isEmpty {
                state.client.locale = LocaleChoice.resolve(text).locale
            }
            Server.setEditorLayers(&state)
            return state.host.workspace.folders.isEmpty
        }
        // No notebook logs them (`openFolders`), so say here what was refused.
        if noFolders { logEditorConfigurationProblems() }
        disk.async { [self] in reloadSettings() }
    }

    /// Hands the editor's settings to the host, and takes the server's own from them.
    static func setEditorLayers(_ state: inout State) {
        state.host.setEditorLayers(editorLayers(state))
        state.maxRequestsInFlight = state.host.workspace.editorConfiguration.maxRequestsInFlight
    }

    /// The editor's settings layers: `initializationOptions`, then the workspace settings.
    static func editorLayers(_ state: State) -> [ConfigurationLayer] {
        var layers: [ConfigurationLayer] = []
        if let options = state.initializationOptions { layers.append(ConfigurationLayer(source: "initializationOptions", value: options)) }
        if let settings = state.editorSettings { layers.append(ConfigurationLayer(source: LocalizedText("server.settings.workspaceSource").string(in: state.client.locale), value: settings)) }
        return layers
    }

    func logEditorConfigurationProblems() {
        let problems = state.withLock { $0.host.workspace.editorConfiguration.problems }
        for problem in problems { logger.warn("configuration: \(problem)") }
    }
}
