// A real client drives the built server: headless Neovim loads our plugin (editors/nvim), which
// starts `macmd lsp`, opens a note of the sample notebook and asks for `macmd/preview`.
//
// Invariants: the test never skips (a missing nvim is a failure that says how to get it); nvim
// runs with a 60 s wall-clock limit and is killed after it; it sees no user configuration
// (`-u` our init.lua, `--noplugin`, `-i NONE`, XDG directories in the temp folder).

import Foundation
import TestSupport
import XCTest

final class NeovimTests: XCTestCase {
    /// How long nvim may run before the test kills it.
    static let nvimTimeout: TimeInterval = 60

    /// Runs a command found on PATH to completion (or kills it after `timeout`).
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                    timeout: TimeInterval) throws -> TestProcess.Result {
        try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: environment, in: folder, timeout: timeout)
    }

    /// The `title:` of a note's front matter and the text of its first ATX heading.
    static func titleAndFirstHeading(of note: String) -> (title: String?, heading: String?) {
        var title: String?
        var heading: String?
        var inFrontMatter = false
        for (index, line) in note.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index == 0 && line == "---" { inFrontMatter = true; continue }
            if inFrontMatter {
                if line == "---" || line == "..." { inFrontMatter = false }
                else if line.hasPrefix("title:") {
                    title = line.dropFirst("title:".count).trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                }
                continue
            }
            if line.hasPrefix("# ") {
                heading = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
                break
            }
        }
        return (title, heading)
    }

    func testHeadlessNeovimStartsTheServerAndPreviewsANote() throws {
        guard let nvim = Self.which("nvim") else {
            XCTFail("nvim is not installed: this test drives the server through a real Neovim. "
                    + "`.ci/run` installs it (Debian package `neovim`); or run `apt-get install -y neovim`.")
            return
        }
        let macmd = try MacmdBinary.url()
        // First the API the plugin picks for this Neovim, then each older one it still has, so a
        // new Neovim also checks the paths that users of older ones take.
        let first = try drive(nvim: nvim, macmd: macmd, api: nil)
        print("EditorTests: drove macmd lsp through Neovim \(first.version) with the `\(first.api)` API (\(macmd.path))")
        for api in ["start", "start_client"] where api != first.api {
            let other = try drive(nvim: nvim, macmd: macmd, api: api)
            if other.available {
                print("EditorTests: and with the `\(api)` API")
            }
        }
    }

    /// Runs nvim once with the plugin forced to `api` (nil: its own choice), checks the report,
    /// and says which API ran and whether this Neovim has it at all.
    func drive(nvim: String, macmd: URL, api: String?) throws -> (version: String, api: String, available: Bool) {
        let noteURL = TestPaths.packageRoot.appendingPathComponent("Fixtures/notebook/index.md")
        let note = try String(contentsOf: noteURL, encoding: .utf8)
        let expected = Self.titleAndFirstHeading(of: note)
        let title = try XCTUnwrap(expected.title, "index.md has a front matter title")
        let heading = try XCTUnwrap(expected.heading, "index.md has a level-1 heading")

        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("macmd-nvim-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The save test edits a copy, so the fixture is never written.
        let copy = work.appendingPathComponent("copy.md")
        try note.write(to: copy, atomically: true, encoding: .utf8)
        let initLua = work.appendingPathComponent("init.lua")
        try Self.initLua.write(to: initLua, atomically: true, encoding: .utf8)
        let report = work.appendingPathComponent("report.json")
        let serverLog = work.appendingPathComponent("server.log")

        let result = try Self.run(
            [nvim, "--headless", "--noplugin", "-i", "NONE", "-u", initLua.path], in: work,
            environment: [
                "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/nvim").path,
                "MACMD_TEST_BIN": macmd.path,
                "MACMD_TEST_API": api ?? "",
                "MACMD_TEST_NOTE": noteURL.path,
                "MACMD_TEST_COPY": copy.path,
                "MACMD_TEST_REPORT": report.path,
                "MACMD_TEST_SERVER_LOG": serverLog.path,
                "XDG_CONFIG_HOME": work.appendingPathComponent("config").path,
                "XDG_DATA_HOME": work.appendingPathComponent("data").path,
                "XDG_STATE_HOME": work.appendingPathComponent("state").path,
                "XDG_CACHE_HOME": work.appendingPathComponent("cache").path,
            ],
            timeout: Self.nvimTimeout)
        let log = (try? String(contentsOf: serverLog, encoding: .utf8)) ?? "(no server log)"
        let context = "API \(api ?? "(default)"); nvim output:\n\(result.stdout)\(result.stderr)\nserver log:\n\(log)"
        XCTAssertNotNil(result.status, "nvim did not finish within \(Int(Self.nvimTimeout)) s and was killed\n\(context)")

        let data = try XCTUnwrap(FileManager.default.contents(atPath: report.path),
                                 "nvim wrote no report\n\(context)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                                 "the report is not a JSON object: \(String(decoding: data, as: UTF8.self))")
        let version = json["nvim"] as? String ?? "?"
        let ranAPI = json["api"] as? String ?? "?"
        if json["unavailable"] as? Bool == true {
            return (version, ranAPI, false)
        }
        XCTAssertNil(json["error"], "Neovim \(version): \(json["error"] ?? "")\n\(context)")
        if let api { XCTAssertEqual(ranAPI, api, context) }
        XCTAssertEqual(json["filetype"] as? String, "markdown")
        XCTAssertEqual(json["title"] as? String, title, "the title comes from the front matter")
        XCTAssertGreaterThan(json["wordCount"] as? Int ?? 0, 100, "index.md has a few hundred words")
        let html = json["html"] as? String ?? ""
        XCTAssertTrue(html.contains(">\(heading)</h1>"), "the HTML holds the first heading: \(html)")
        XCTAssertLessThanOrEqual(html.utf8.count, 200)
        XCTAssertEqual(json["root"] as? String, Self.expectedRoot(of: noteURL).path,
                       "the root is the nearest folder with .git or .macmd.json")

        // :MacMDPreview wrote a full page, "opened" it once, and a save re-rendered it.
        let page = json["pageStart"] as? String ?? ""
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"), page)
        XCTAssertTrue(page.contains("<title>\(title)</title>"), page)
        XCTAssertTrue(page.contains(#"<meta http-equiv="refresh""#), page)
        XCTAssertTrue(page.contains(#"<html data-theme="dark">"#), "`:MacMDPreview dark` gives the dark page: \(page)")
        XCTAssertEqual(json["copyRoot"] as? String, work.resolvingSymlinksInPath().path,
                       "a note outside any root marker gets its own folder")
        XCTAssertEqual(json["opened"] as? Int, 1, "the browser opens once, not on every save")
        XCTAssertEqual(json["refreshedOnSave"] as? Bool, true, "BufWritePost re-renders the page")
        XCTAssertEqual(json["stopped"] as? Bool, true, "the clients stop when asked")

        // What the server holds after Neovim's incremental changes is what Neovim saved.
        // The preview resolves wiki-links in the note's notebook (its folder), as
        // `macmd render --notebook` does.
        let rendered = try TestProcess.macmd(["render", "--source-lines", "--notebook", work.path, copy.path], in: work)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let synced = json["syncedHTML"] as? String ?? ""
        XCTAssertTrue(synced.contains("Émoji 🎉 and ü line") && synced.contains("quoted 𝄞 first"), synced)
        XCTAssertEqual(synced, rendered.stdout,
                       "the preview after incremental edits equals `macmd render` of the saved file")
        XCTAssertEqual(result.status, 0, context)
        return (version, ranAPI, true)
    }

    /// Completion through Neovim itself: i_CTRL-X_CTRL-O with the plugin's omnifunc in insert
    /// mode, and Neovim's own `apply_text_edits` with the item's textEdit (what nvim-cmp and
    /// blink do) inside an existing `[[…]]`. The buffer must read as the writer expects: one
    /// `[[`, one `]]`, the whole note name.
    func testHeadlessNeovimCompletesAWikiLink() throws {
        guard let nvim = Self.which("nvim") else {
            XCTFail("nvim is not installed: `.ci/run` installs it (Debian package `neovim`); or run `apt-get install -y neovim`.")
            return
        }
        let macmd = try MacmdBinary.url()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-nvim-complete-\(UUID().uuidString)", isDirectory: true)
        let notebook = work.appendingPathComponent("notebook", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Fixtures/notebook"), to: notebook)
        try "{}\n".write(to: notebook.appendingPathComponent(".macmd.json"), atomically: true, encoding: .utf8)
        let initLua = work.appendingPathComponent("init.lua")
        try Self.completionLua.write(to: initLua, atomically: true, encoding: .utf8)
        let report = work.appendingPathComponent("report.json")
        let serverLog = work.appendingPathComponent("server.log")
        let result = try Self.run(
            [nvim, "--headless", "--noplugin", "-i", "NONE", "-u", initLua.path], in: work,
            environment: [
                "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/nvim").path,
                "MACMD_TEST_BIN": macmd.path,
                "MACMD_TEST_NOTE": notebook.appendingPathComponent("index.md").path,
                "MACMD_TEST_REPORT": report.path,
                "MACMD_TEST_SERVER_LOG": serverLog.path,
                "XDG_CONFIG_HOME": work.appendingPathComponent("config").path,
                "XDG_DATA_HOME": work.appendingPathComponent("data").path,
                "XDG_STATE_HOME": work.appendingPathComponent("state").path,
                "XDG_CACHE_HOME": work.appendingPathComponent("cache").path,
            ],
            timeout: Self.nvimTimeout)
        let log = (try? String(contentsOf: serverLog, encoding: .utf8)) ?? "(no server log)"
        let context = "nvim output:\n\(result.stdout)\(result.stderr)\nserver log:\n\(log.suffix(3000))"
        let data = try XCTUnwrap(FileManager.default.contents(atPath: report.path), "nvim wrote no report\n\(context)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], "the report is not JSON")
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
        XCTAssertEqual(json["omnifunc"] as? String, "v:lua.require'macmd'.omnifunc", "the plugin sets the omnifunc")
        XCTAssertEqual(json["typed"] as? String, "Read [[soil-tests]] today", "CTRL-X CTRL-O in insert mode\n\(context)")
        XCTAssertEqual(json["edited"] as? String, "See [[soil-tests]] too", "textEdit inside an existing [[…]]\n\(context)")
        XCTAssertEqual(json["heading"] as? String, "Back to [[soil-tests#Lime calculation]]", "heading completion after #\n\(context)")
        XCTAssertEqual(json["midword"] as? String, "Mid [[soil-tests]] x", "omnifunc inside a word\n\(context)")
        XCTAssertEqual(json["lone"] as? String, "One [[soil-tests]] x", "omnifunc before a lone ]\n\(context)")
        XCTAssertEqual(json["label"] as? String, "Lab [[soil-tests|the soil]] x", "omnifunc before |label]\n\(context)")
        print("EditorTests: Neovim \(json["nvim"] ?? "?") completed wiki-links and a heading through macmd lsp")
    }

    static let completionLua = #"""
    local env = function(name) return (assert(os.getenv(name), name .. ' is not set')) end
    local report = { nvim = string.format('%d.%d.%d', vim.version().major, vim.version().minor, vim.version().patch) }
    vim.opt.runtimepath:prepend(env('MACMD_TEST_PLUGIN'))
    vim.opt.swapfile = false
    -- The menu shows even for one match, so CTRL-Y accepts it (without a menu CTRL-Y would
    -- copy the character above the cursor).
    vim.opt.completeopt = 'menuone,noinsert'
    vim.cmd('filetype on')

    local function run()
      local macmd = require('macmd')
      macmd.setup({ cmd = { env('MACMD_TEST_BIN'), 'lsp' }, log_file = env('MACMD_TEST_SERVER_LOG'), log_level = 'debug' })
      vim.cmd('edit ' .. vim.fn.fnameescape(env('MACMD_TEST_NOTE')))
      local bufnr = vim.api.nvim_get_current_buf()
      if not vim.wait(30000, function() return macmd.client_for(bufnr) ~= nil end, 20) then
        report.error = 'the macmd client did not attach within 30 s'
        return
      end
      local client = macmd.client_for(bufnr)
      report.omnifunc = vim.bo[bufnr].omnifunc
      local last = vim.api.nvim_buf_line_count(bufnr)

      -- Wait until the notebook is indexed: completion offers soil-tests.
      local function complete_at(row, col)
        local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
        local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = row, character = col } }
        local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, 5000)
        local response = responses and responses[client.id]
        local result = response and response.result
        return result and (result.items or result) or {}, line
      end
      vim.api.nvim_buf_set_lines(bufnr, last, last, false, { 'See [[soil-t]] too' })
      local found
      vim.wait(30000, function()
        local items = complete_at(last, 12)
        for _, item in ipairs(items) do
          if item.textEdit and item.textEdit.newText:find('^soil%-tests') then found = item end
        end
        return found ~= nil
      end, 100)
      if not found then
        report.error = 'no completion item for soil-tests after 30 s'
        return
      end
      -- The way nvim-cmp and blink insert: Neovim applies the item's textEdit.
      vim.lsp.util.apply_text_edits({ found.textEdit }, bufnr, client.offset_encoding or 'utf-16')
      report.edited = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1]

      -- The built-in way: type in insert mode and press CTRL-X CTRL-O, then CTRL-Y.
      vim.api.nvim_buf_set_lines(bufnr, last + 1, last + 1, false, { 'Read  today' })
      vim.api.nvim_win_set_cursor(0, { last + 2, 5 })
      local keys = vim.api.nvim_replace_termcodes('i[[soil-t<C-x><C-o><C-y><Esc>', true, false, true)
      vim.api.nvim_feedkeys(keys, 'xt', false)
      report.typed = vim.api.nvim_buf_get_lines(bufnr, last + 1, last + 2, false)[1]

      -- A heading of another note after `#`.
      vim.api.nvim_buf_set_lines(bufnr, last + 2, last + 2, false, { 'Back to ' })
      vim.api.nvim_win_set_cursor(0, { last + 3, 7 })
      keys = vim.api.nvim_replace_termcodes('a[[soil-tests#Lime<C-x><C-o><C-y><Esc>', true, false, true)
      vim.api.nvim_feedkeys(keys, 'xt', false)
      report.heading = vim.api.nvim_buf_get_lines(bufnr, last + 2, last + 3, false)[1]

      -- CTRL-X CTRL-O with text after the cursor that the item's textEdit covers or keeps: the
      -- rest of a word, a lone `]` an auto-pairing plugin left, a label before a lone `]`.
      local function omni(text, column)
        local row = vim.api.nvim_buf_line_count(bufnr)
        vim.api.nvim_buf_set_lines(bufnr, row, row, false, { text })
        vim.api.nvim_win_set_cursor(0, { row + 1, column })
        vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('i<C-x><C-o><C-y><Esc>', true, false, true), 'xt', false)
        return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
      end
      report.midword = omni('Mid [[soil-te]] x', 12)
      report.lone = omni('One [[soil-t] x', 12)
      report.label = omni('Lab [[soil-t|the soil] x', 12)
    end

    local ok, err = pcall(run)
    if not ok then report.error = tostring(err) end
    local file = io.open(env('MACMD_TEST_REPORT'), 'w')
    file:write(vim.fn.json_encode(report))
    file:close()
    for _, client in pairs(vim.lsp.get_active_clients and vim.lsp.get_active_clients() or vim.lsp.get_clients()) do
      client.stop()
    end
    vim.wait(2000, function() return #(vim.lsp.get_active_clients and vim.lsp.get_active_clients() or vim.lsp.get_clients()) == 0 end, 20)
    vim.cmd('qa!')
    """#

    /// The plugin's rule: the nearest folder upwards with `.git` or `.macmd.json`, else the note's.
    static func expectedRoot(of note: URL) -> URL {
        let start = note.deletingLastPathComponent()
        var folder = start
        while true {
            for marker in [".git", ".macmd.json"]
            where FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return start }
            folder = parent
        }
    }

    static func which(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(command)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The init.lua nvim runs. Paths come from the environment; everything it learns goes into a
    /// JSON report, and any failure becomes the report's `error` instead of a hang.
    static let initLua = #"""
    local env = function(name) return (assert(os.getenv(name), name .. ' is not set')) end
    local report = { nvim = string.format('%d.%d.%d', vim.version().major, vim.version().minor, vim.version().patch) }
    vim.opt.runtimepath:prepend(env('MACMD_TEST_PLUGIN'))
    vim.opt.swapfile = false
    vim.cmd('filetype on')

    local function clients()
      if vim.lsp.get_clients then return vim.lsp.get_clients() end
      return vim.lsp.get_active_clients()
    end

    local function run()
      local macmd = require('macmd')
      local opened = {}
      local api = os.getenv('MACMD_TEST_API')
      if api == '' then api = nil end
      report.api = api
      if (api == 'start' and not vim.lsp.start) or (api == 'start_client' and not vim.lsp.start_client) then
        report.unavailable = true
        return
      end
      macmd.setup({
        api = api,
        cmd = { env('MACMD_TEST_BIN'), 'lsp' },
        log_file = env('MACMD_TEST_SERVER_LOG'),
        log_level = 'debug',
        preview = { open = function(path) table.insert(opened, path) end },
      })

      report.api = macmd.api
      vim.cmd('edit ' .. vim.fn.fnameescape(env('MACMD_TEST_NOTE')))
      local bufnr = vim.api.nvim_get_current_buf()
      report.filetype = vim.bo[bufnr].filetype
      if not vim.wait(30000, function() return macmd.client_for(bufnr) ~= nil end, 20) then
        report.error = 'the macmd client did not attach within 30 s'
        return
      end
      local client = macmd.client_for(bufnr)
      report.root = client.config.root_dir
      local responses, err = vim.lsp.buf_request_sync(bufnr, 'macmd/preview',
        { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 30000)
      if not responses then report.error = 'buf_request_sync: ' .. tostring(err); return end
      local response = responses[client.id]
      if not response then report.error = 'no response from the macmd client'; return end
      if response.error or response.err then
        report.error = 'macmd/preview: ' .. vim.inspect(response.error or response.err)
        return
      end
      report.title = response.result.title
      report.wordCount = response.result.wordCount
      report.html = response.result.html:sub(1, 200)

      -- :MacMDPreview on a copy of the note, then an edit and a save re-render the page.
      vim.cmd('edit ' .. vim.fn.fnameescape(env('MACMD_TEST_COPY')))
      local copy = vim.api.nvim_get_current_buf()
      if not vim.wait(30000, function() return macmd.client_for(copy) ~= nil end, 20) then
        report.error = 'the macmd client did not attach to the copy'
        return
      end
      report.copyRoot = macmd.client_for(copy).config.root_dir
      vim.cmd('MacMDPreview dark')
      if not vim.wait(30000, function() return #opened > 0 end, 20) then
        report.error = ':MacMDPreview opened no page'
        return
      end
      local file = io.open(opened[1], 'rb')
      report.pageStart = file:read('*a'):sub(1, 400)
      file:close()
      vim.api.nvim_buf_set_lines(copy, -1, -1, false, { '', '## Added before the save' })
      vim.cmd('write')
      report.refreshedOnSave = vim.wait(30000, function()
        local page = io.open(opened[1], 'rb')
        local text = page:read('*a')
        page:close()
        return text:find('Added before the save', 1, true) ~= nil
      end, 20)
      report.opened = #opened

      -- Incremental sync through a real client: edits with characters outside the BMP (two
      -- UTF-16 units, four UTF-8 bytes), a replacement inside a line, a multi-line insertion and
      -- a deletion; then the preview of the buffer must equal `macmd render` of the saved file.
      vim.api.nvim_buf_set_lines(copy, 20, 20, false, { 'Émoji 😀 line with **bold** and 𝄞 #tag' })
      vim.api.nvim_buf_set_text(copy, 20, 7, 20, 11, { '🎉 and ü' })
      vim.api.nvim_buf_set_text(copy, 12, 0, 12, 0, { '> quoted 𝄞 first', '> second ', '' })
      vim.api.nvim_buf_set_lines(copy, 30, 32, false, {})
      vim.api.nvim_buf_set_text(copy, 0, 0, 0, 0, { '' })
      vim.cmd('write')
      local synced = vim.lsp.buf_request_sync(copy, 'macmd/preview',
        { textDocument = { uri = vim.uri_from_bufnr(copy) } }, 30000)
      local answer = synced and synced[macmd.client_for(copy).id]
      if not answer or not answer.result then
        report.error = 'macmd/preview after the edits: ' .. vim.inspect(answer)
        return
      end
      report.syncedHTML = answer.result.html

      for _, c in pairs(clients()) do
        if vim.fn.has('nvim-0.11') == 1 then c:stop() else c.stop() end
      end
      report.stopped = vim.wait(10000, function() return #clients() == 0 end, 20)
    end

    vim.api.nvim_create_autocmd('VimEnter', {
      nested = true, -- so :edit inside fires FileType, which starts the client
      callback = function()
        local ok, message = pcall(run)
        if not ok then report.error = 'lua: ' .. tostring(message) end
        local out = io.open(env('MACMD_TEST_REPORT'), 'w')
        out:write(vim.fn.json_encode(report))
        out:close()
        vim.cmd('qall!')
      end,
    })
    """#
}
