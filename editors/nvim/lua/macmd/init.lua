-- MacMD for Neovim: starts `macmd lsp` for Markdown buffers and adds :MacMDPreview.
--
-- Invariants:
--   * One code path per Neovim API generation, chosen once by feature test, never by guess:
--     0.11+ `vim.lsp.config` + `vim.lsp.enable`; 0.8-0.10 `vim.lsp.start`;
--     0.7 `vim.lsp.start_client` + `vim.lsp.buf_attach_client` (Debian bookworm ships 0.7).
--   * A workspace root is the nearest folder upwards holding a root marker (`.macmd.json`,
--     `.obsidian`, `.git` (a folder, or a file in a git worktree), `.marksman.toml`,
--     `.moxide.toml`, `book.toml`, `mkdocs.yml`); without one it is the note's own folder (a guessed root: the server then
--     reports links that find nothing as hints). One client per root.
--   * `macmd/preview` goes only to the macmd client, never to the other servers on the buffer.
--   * Nothing here blocks the editor for long: previews are asynchronous requests; a keystroke
--     (Enter, a pair's opening, a trigger of onTypeFormatting) waits for the server at most
--     `editing.timeout_ms` and is typed as usual when the answer is late or missing.
--   * Typing help never loses a keystroke: the typed character is always inserted (by Neovim's
--     own key, fed back unmapped), the server's edits only add around it.

local M = {}

local uv = vim.uv or vim.loop
local has_011 = vim.fn.has('nvim-0.11') == 1

--- The defaults `setup(opts)` merges the user's options into.
M.defaults = {
  -- The command that starts the server; `macmd` must be on PATH unless this names a path.
  cmd = { 'macmd', 'lsp' },
  filetypes = { 'markdown' },
  -- What marks a notebook's root (the nearest folder upwards with one wins): MacMD's settings,
  -- an Obsidian vault, a git repository, marksman's and markdown-oxide's settings.
  root_markers = { '.macmd.json', '.obsidian', '.git', '.marksman.toml', '.moxide.toml', 'book.toml', 'mkdocs.yml' },
  -- Extra arguments for `macmd lsp`, e.g. log_file = '/tmp/macmd.log', log_level = 'debug'.
  log_file = nil,
  log_level = nil,
  -- Sent as `initializationOptions` and answered to `workspace/configuration` (section `macmd`).
  settings = {},
  -- Called as on_attach(client, bufnr) after the server attaches to a buffer.
  on_attach = nil,
  -- Reference counts above a note's title and its headings ("3 backlinks · 2 unlinked
  -- mentions", textDocument/codeLens), refreshed when you enter the buffer, leave insert mode
  -- and save; `:lua vim.lsp.codelens.run()` on the line lists the places in the location list.
  codelens = true,
  -- Set the buffer's 'omnifunc' to require('macmd').omnifunc (i_CTRL-X_CTRL-O completes
  -- links, headings and tags) unless the user set another one (Markdown's default HTML tag
  -- completion and the generic LSP one are replaced).
  omnifunc = true,
  capabilities = nil,
  -- Link the semantic-token groups of MacMD's own token types and modifiers (M.highlights) to
  -- standard groups, as defaults a colour scheme or your own nvim_set_hl overrides (0.9+).
  semantic_highlights = true,
  -- Which client API starts the server: nil picks the newest this Neovim has; 'config'
  -- (vim.lsp.config/enable, 0.11+), 'start' (vim.lsp.start, 0.8+) or 'start_client' (0.7)
  -- force one, which the tests use to run the older paths on a newer Neovim.
  api = nil,
  -- Typing help in insert mode, from the server (each key asks it synchronously):
  editing = {
    -- Enter continues lists, quotes and tables, and an empty item ends its list
    -- (textDocument/onTypeFormatting on "\n").
    list_continuation = true,
    -- A fence's third backtick gets its closing fence, a second `[` the `]]`, a `|` at the end
    -- of a table row aligns the table (textDocument/onTypeFormatting on ` [ |).
    format_on_type = true,
    -- Pairs close where the server says they do (macmd/pairs): `[`, `(`, `` ` ``, `*`, `_`, `$`,
    -- `[[`, `**`, … ; typing a closing character in front of the same one steps over it, and <BS>
    -- between an empty pair deletes both.
    autopairs = true,
    -- How long a key waits for the server's answer, in milliseconds.
    timeout_ms = 300,
    -- `gq` fills prose to 'textwidth' through the server, which knows the syntax: headings, code
    -- and tables are not wrapped (tables are aligned), no line starts with what would begin
    -- another block. Sets 'formatexpr' (unless you set your own); false leaves Neovim's.
    formatexpr = true,
  },
  preview = {
    -- The preview theme; nil lets the server use the notebook's `preview.theme` (else `light`).
    theme = nil,
    -- A full page that reloads itself every N seconds, so a save shows up in the browser without
    -- touching it; 0 writes the page as the server made it (then reload the tab by hand).
    refresh_seconds = 2,
    -- How to open the page: nil uses vim.ui.open (0.10+), else xdg-open / open / start.
    -- A list is a command the page's URL is appended to; a function is called with the URL
    -- (`file:///…/note-1a2b3c4d5e6f.html#heading-id`: the page, at the heading above the cursor).
    open = nil,
    -- Where the pages are written (one per note, kept across sessions); nil is
    -- stdpath('cache')/macmd/preview. Only without `server`.
    folder = nil,
    -- Serve the preview from Neovim on 127.0.0.1 (lua/macmd/server.lua): each page is made when
    -- the browser asks for it, so links to notes open their preview, tag chips open the tag's
    -- notes, and the page shows unsaved edits. false writes one page file per note instead
    -- (links then lead to the notes' files).
    server = true,
  },
}

M.config = vim.deepcopy(M.defaults)

--- The highlight links of MacMD's semantic tokens (docs/lsp.md, "Semantic tokens"): types
--- `link`, `heading`, `blockId`, `tag`, `math` (`property` has Neovim's own default) and the
--- modifiers `unresolved` and `ambiguous` (underlined as errors and warnings are).
M.highlights = {
  ['@lsp.type.link.markdown'] = '@markup.link.url',
  ['@lsp.type.heading.markdown'] = '@markup.link.label',
  ['@lsp.type.blockId.markdown'] = '@constant',
  ['@lsp.type.tag.markdown'] = '@label',
  ['@lsp.type.math.markdown'] = '@markup.math',
  ['@lsp.mod.unresolved.markdown'] = 'DiagnosticUnderlineError',
  ['@lsp.mod.ambiguous.markdown'] = 'DiagnosticUnderlineWarn',
}

--- Links M.highlights as defaults (`default = true`: a colour scheme's or the user's own
--- definition wins); again after each `:colorscheme`, which clears them. Neovim colours
--- semantic tokens from 0.9 on.
function M.define_highlights()
  if vim.fn.has('nvim-0.9') == 0 then return end
  for group, target in pairs(M.highlights) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

--- The preview themes `macmd/preview` accepts.
M.themes = {
  'light', 'dark', 'basic', 'grass', 'homebrew', 'man-page', 'novel', 'ocean', 'pro',
  'red-sands', 'silver-aerogel', 'solid-colors',
}

local function notify(message, level)
  vim.notify('macmd: ' .. message, level or vim.log.levels.INFO)
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

--- The workspace root of a file: the nearest folder upwards with a root marker, else its folder.
function M.root_dir(path, markers)
  markers = markers or M.config.root_markers
  if path == nil or path == '' then
    return uv.cwd()
  end
  local start = vim.fn.fnamemodify(path, ':p:h')
  local dir = start
  while dir and dir ~= '' do
    for _, marker in ipairs(markers) do
      if exists(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return start
end

-- Whether the missing-executable warning was shown (once per session, not once per note).
local warned_missing = false

--- Whether the server command's executable can be run; the first time it cannot, says so with
--- a warning (every Neovim version; 0.11's vim.lsp.enable would otherwise fail silently).
function M.executable_or_warn(cmd)
  cmd = cmd or M.config.cmd
  local program = type(cmd) == 'table' and cmd[1] or cmd
  if type(program) == 'string' and vim.fn.executable(program) == 1 then
    return true
  end
  if not warned_missing then
    warned_missing = true
    notify('`' .. tostring(program) .. '` is not executable, so the language server does not start; '
      .. 'put macmd on PATH or set cmd in require("macmd").setup{} (see :help macmd, :checkhealth macmd)',
      vim.log.levels.WARN)
  end
  return false
end

local function server_cmd()
  local cmd = vim.deepcopy(M.config.cmd)
  if type(cmd) == 'string' then
    cmd = { cmd, 'lsp' }
  end
  if M.config.log_file then
    table.insert(cmd, '--log-file')
    table.insert(cmd, M.config.log_file)
  end
  if M.config.log_level then
    table.insert(cmd, '--log-level')
    table.insert(cmd, M.config.log_level)
  end
  return cmd
end

-- The settings as the server reads them: `initializationOptions` and the `macmd` section.
local function server_settings()
  local settings = vim.deepcopy(M.config.settings or {})
  if M.config.preview.theme then
    settings.preview = settings.preview or {}
    settings.preview.theme = settings.preview.theme or M.config.preview.theme
  end
  -- An empty Lua table would be sent as the JSON array `[]`; the settings are an object.
  if next(settings) == nil then
    return vim.empty_dict()
  end
  return settings
end

--- The client configuration shared by every API generation. `root_dir` is left to the caller.
function M.client_config()
  local settings = server_settings()
  local config = {
    name = 'macmd',
    cmd = server_cmd(),
    filetypes = M.config.filetypes,
    init_options = settings,
    settings = { macmd = settings },
    on_attach = function(client, bufnr)
      -- Markdown's ftplugin sets HTML tag completion; LSP clients set their generic one.
      local current = vim.bo[bufnr].omnifunc
      if M.config.omnifunc and (current == '' or current == 'v:lua.vim.lsp.omnifunc' or current == 'htmlcomplete#CompleteTags') then
        vim.bo[bufnr].omnifunc = "v:lua.require'macmd'.omnifunc"
      end
      M.attach_editing(client, bufnr)
      if M.config.codelens then M.attach_codelens(client, bufnr) end
      -- Neovim 0.8+ sets its LSP 'formatexpr', which formats only what the server formats (so
      -- `gq` wrapped no prose); MacMD's fills prose as `gq` does. A 'formatexpr' of your own stays.
      local formatexpr = vim.bo[bufnr].formatexpr
      if M.config.editing.formatexpr and (formatexpr == '' or formatexpr == 'v:lua.vim.lsp.formatexpr()') then
        vim.bo[bufnr].formatexpr = "v:lua.require'macmd'.formatexpr()"
      end
      if M.config.on_attach then
        M.config.on_attach(client, bufnr)
      end
    end,
  }
  if M.config.capabilities then
    config.capabilities = M.config.capabilities
  end
  return config
end

--- Shows a note's code lenses (reference counts) and keeps them current: on entering the
--- buffer, leaving insert mode and saving, as Neovim's documentation suggests, and when the
--- notebook's first scan ends.
function M.attach_codelens(client, bufnr)
  local capabilities = client.server_capabilities or {}
  if not capabilities.codeLensProvider then
    return
  end
  local function refresh()
    if not vim.api.nvim_buf_is_valid(bufnr) then return end
    if has_011 then
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    elseif vim.api.nvim_get_current_buf() == bufnr then
      -- Neovim 0.7-0.10 refresh the current buffer.
      vim.lsp.codelens.refresh()
    end
  end
  local group = vim.api.nvim_create_augroup('macmd_codelens_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, { group = group, buffer = bufnr, callback = refresh })
  -- The counts are complete once the notebook's first scan ends (its progress report's end);
  -- Neovim does not take the server's workspace/codeLens/refresh.
  if vim.fn.exists('##LspProgress') == 1 then
    vim.api.nvim_create_autocmd('LspProgress', {
      group = group,
      pattern = 'end',
      callback = function(args)
        if args.data and args.data.client_id == client.id then refresh() end
      end,
    })
  else
    vim.api.nvim_create_autocmd('User', { group = group, pattern = 'LspProgressUpdate', callback = refresh })
  end
  refresh()
end

--- `macmd.showReferences`, the command of a code lens (the arguments of VS Code's
--- `editor.action.showReferences`: the note's URI, a position, the places): the places in the
--- window's location list, opened.
function M.show_references(command, ctx)
  local locations = (command.arguments or {})[3] or {}
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  local items = vim.lsp.util.locations_to_items(locations, client and client.offset_encoding or 'utf-16')
  vim.fn.setloclist(0, {}, ' ', { title = command.title, items = items })
  if #items > 0 then
    vim.cmd('lopen')
  else
    notify(command.title)
  end
end

--- The configuration for Neovim 0.11's `vim.lsp.config('macmd', …)` (also read by lsp/macmd.lua).
function M.lsp_config()
  local config = M.client_config()
  config.root_markers = M.config.root_markers
  -- A function root_dir wins over root_markers and adds the "else the note's folder" fallback.
  config.root_dir = function(bufnr, on_dir)
    on_dir(M.root_dir(vim.api.nvim_buf_get_name(bufnr)))
  end
  -- vim.lsp.enable skips a server whose executable is missing without a word; say it once.
  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('macmd_executable', { clear = true }),
    pattern = config.filetypes,
    callback = function()
      M.executable_or_warn(config.cmd)
    end,
  })
  return config
end

-- The byte column of an LSP `character` on `line` in the client's position encoding.
local function byte_column(line, character, encoding)
  if encoding == 'utf-8' then
    return math.min(character, #line)
  end
  local ok, column
  if has_011 then
    ok, column = pcall(vim.str_byteindex, line, encoding, character, false)
  else
    ok, column = pcall(vim.str_byteindex, line, character, encoding == 'utf-16')
  end
  return ok and column or #line
end

-- The LSP `character` of a byte column on `line` in the client's position encoding.
local function lsp_character(line, column, encoding)
  if encoding == 'utf-8' then
    return column
  end
  local prefix = line:sub(1, column)
  if has_011 then
    return vim.str_utfindex(prefix, encoding)
  end
  local utf32, utf16 = vim.str_utfindex(prefix)
  return encoding == 'utf-32' and utf32 or utf16
end

-- Items of the last completion, for the second omnifunc call.
local omni_items = {}

--- After an omnifunc item is accepted: Vim replaced the text from the start column to the
--- cursor, but the server's textEdit may also cover text after the cursor (the rest of the word
--- in `[[no|te]]`, a `|label]` the item writes back). That part is deleted here, so the buffer
--- reads exactly as the textEdit says.
function M.complete_done()
  local item = vim.v.completed_item
  local data = type(item) == 'table' and item.user_data or nil
  if type(data) ~= 'table' or type(data.macmd) ~= 'table' then
    return
  end
  local after = tonumber(data.macmd.after) or 0
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  local stop = math.min(#line, cursor[2] + math.max(after, 0))
  local snippet = data.macmd.snippet
  if type(snippet) == 'string' then
    -- The prefix Vim inserted goes (with the edit's text after the cursor); the expansion comes.
    local start = math.min(tonumber(data.macmd.start) or cursor[2], cursor[2])
    vim.api.nvim_buf_set_text(0, cursor[1] - 1, start, cursor[1] - 1, stop, {})
    vim.api.nvim_win_set_cursor(0, { cursor[1], start })
    M.insert_snippet(snippet, data.macmd.format == 2)
    return
  end
  if stop > cursor[2] then
    vim.api.nvim_buf_set_text(0, cursor[1] - 1, cursor[2], cursor[1] - 1, stop, {})
  end
end

--- Inserts a completion's text at the cursor: a snippet through vim.snippet (0.10+), which puts
--- the cursor in the first tab stop; plain text (or a snippet on an older Neovim, as the text of
--- its placeholders) with the cursor after it.
function M.insert_snippet(text, is_snippet)
  if is_snippet and vim.snippet then
    vim.snippet.expand(text)
    return
  end
  if is_snippet and vim.lsp.util.parse_snippet then
    local ok, plain = pcall(vim.lsp.util.parse_snippet, text)
    text = ok and plain or text
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local lines = vim.split(text, '\n', { plain = true })
  vim.api.nvim_buf_set_text(0, cursor[1] - 1, cursor[2], cursor[1] - 1, cursor[2], lines)
  local last = #lines == 1 and cursor[2] + #lines[1] or #lines[#lines]
  vim.api.nvim_win_set_cursor(0, { cursor[1] + #lines - 1, last })
end

local complete_done_group = nil

--- An 'omnifunc' that inserts exactly what the server says. It starts the completion where the
--- server's textEdit starts (just after `[[`, `(`, `#`), so `[[note-with-dashes` and
--- `[text](folder/` complete whole; Neovim's built-in omnifunc before 0.11 starts at the last
--- keyword and would repeat the part before a `-` or `/`. The part of the textEdit after the
--- cursor is removed when the item is accepted (`complete_done`). Items come from one
--- synchronous request (at most two seconds).
function M.omnifunc(findstart, base)
  local bufnr = vim.api.nvim_get_current_buf()
  if findstart ~= 1 then
    local words = {}
    for _, item in ipairs(omni_items) do
      table.insert(words, item)
    end
    return words
  end
  omni_items = {}
  local client = M.client_for(bufnr)
  if not client then
    return -3
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  local encoding = client.offset_encoding or 'utf-16'
  local character = lsp_character(line, cursor[2], encoding)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = cursor[1] - 1, character = character } }
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, 2000)
  local response = responses and responses[client.id]
  local result = response and response.result
  local items = result and (result.items or result) or {}
  local start = nil
  for _, item in ipairs(items) do
    local edit = item.textEdit
    if edit and edit.range and edit.range.start.line == cursor[1] - 1 then
      local column = byte_column(line, edit.range.start.character, encoding)
      start = start and math.min(start, column) or column
      -- Bytes of the edit's range after the cursor, removed once the item is accepted.
      local after = 0
      if edit.range['end'].line == cursor[1] - 1 then
        after = math.max(0, byte_column(line, edit.range['end'].character, encoding) - cursor[2])
      end
      -- A snippet (or any multi-line text) is inserted as its prefix, then replaced by its
      -- expansion when accepted: Vim cannot insert line breaks or tab stops from a word.
      local snippet = item.insertTextFormat == 2 or item.kind == 15 or edit.newText:find('\n', 1, true) ~= nil
      table.insert(omni_items, {
        word = snippet and (item.filterText or item.label) or edit.newText,
        abbr = item.label,
        menu = item.detail or '',
        info = snippet and edit.newText or nil,
        kind = snippet and 'Snippet' or nil,
        icase = 1,
        dup = 1,
        user_data = { macmd = {
          after = after,
          snippet = snippet and edit.newText or nil,
          format = item.insertTextFormat,
          start = column,
        } },
      })
    end
  end
  if not start then
    return -3
  end
  if not complete_done_group then
    complete_done_group = vim.api.nvim_create_augroup('macmd_omnifunc', { clear = true })
    vim.api.nvim_create_autocmd('CompleteDone', {
      group = complete_done_group,
      callback = function()
        M.complete_done()
      end,
    })
  end
  return start
end

--- The macmd client attached to a buffer, or nil. Works on every supported version.
function M.client_for(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = 'macmd' })
  elseif vim.fn.has('nvim-0.8') == 1 then
    clients = vim.lsp.get_active_clients({ bufnr = bufnr, name = 'macmd' })
  else
    clients = vim.lsp.buf_get_clients(bufnr)
  end
  for _, client in pairs(clients or {}) do
    if client.name == 'macmd' then
      return client
    end
  end
  return nil
end

local function is_markdown(bufnr)
  local filetype = vim.bo[bufnr].filetype
  for _, ft in ipairs(M.config.filetypes) do
    if ft == filetype then
      return true
    end
  end
  return false
end

-- 0.7: client ids by root, since there is no vim.lsp.start to find a client to reuse.
local clients_by_root = {}

--- Starts (or reuses) the client for a buffer on Neovim 0.7-0.10.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local cmd = server_cmd()
  if not M.executable_or_warn(cmd) then
    return nil
  end
  local config = M.client_config()
  config.root_dir = M.root_dir(vim.api.nvim_buf_get_name(bufnr))
  config.workspace_folders = {
    { uri = vim.uri_from_fname(config.root_dir), name = config.root_dir },
  }
  if vim.lsp.start and M.config.api ~= 'start_client' then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[config.root_dir]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    if id == nil then
      notify('could not start ' .. table.concat(cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- Sends a request to one client with the calling convention of this Neovim version.
local function client_request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- Sends a request to one client and waits for its answer (at most timeout_ms); nil on error.
local function client_request_sync(client, method, params, bufnr, timeout_ms)
  local response
  if has_011 then
    response = client:request_sync(method, params, timeout_ms, bufnr)
  else
    response = client.request_sync(method, params, timeout_ms, bufnr)
  end
  if type(response) ~= 'table' or response.err or response.error then
    return nil
  end
  return response.result
end

-- Feeds keys to Neovim unmapped, ahead of whatever is already typed.
local function feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'ni', false)
end

-- The cursor of the current window as an LSP position for `client`.
local function cursor_position(client)
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  return { line = cursor[1] - 1, character = lsp_character(line, cursor[2], client.offset_encoding or 'utf-16') }
end

-- The macmd client of the current buffer when it has `capability` (a path in its capabilities).
local function editing_client(...)
  local client = M.client_for(0)
  if client == nil then
    return nil
  end
  local capability = client.server_capabilities
  for _, key in ipairs({ ... }) do
    capability = type(capability) == 'table' and capability[key] or nil
  end
  return capability and client or nil
end

--- Sends textDocument/onTypeFormatting for the character `ch` just typed and applies the edits.
--- Neovim moves the cursor along with them (text inserted before or at it pushes it right).
function M.format_on_type(ch)
  local client = editing_client('documentOnTypeFormattingProvider')
  if client == nil then
    return
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local tab_size = vim.bo[bufnr].shiftwidth
  if tab_size == 0 then
    tab_size = vim.bo[bufnr].tabstop
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = cursor_position(client),
    ch = ch,
    options = { tabSize = tab_size, insertSpaces = vim.bo[bufnr].expandtab },
  }
  local edits = client_request_sync(client, 'textDocument/onTypeFormatting', params, bufnr, M.config.editing.timeout_ms)
  if type(edits) == 'table' and #edits > 0 then
    M.apply_edits(edits, bufnr, client.offset_encoding or 'utf-16')
  end
end

-- Whether position (row a, column b) comes before (row c, column d), or equals it when `equal`.
local function before_position(a, b, c, d, equal)
  return a < c or (a == c and (b < d or (equal and b == d)))
end

--- Applies the text edits of a keystroke to the current buffer and moves the cursor as VS Code
--- does, which the server's edits are made for: an edit that ends at or before the cursor shifts
--- it by what the edit added (an insertion at the cursor leaves it after the text), any other
--- leaves it in place, and so does one marked `macmd.cursorBefore`. `vim.lsp.util.apply_text_edits` moves it differently from one Neovim to
--- the next (0.7 puts it before text inserted at the end of the buffer). An edit that reaches
--- past the last line replaces the final line break, which Neovim keeps as 'eol'.
function M.apply_edits(edits, bufnr, encoding)
  local order = {}
  for index, edit in ipairs(edits) do
    order[index] = { edit = edit, index = index }
  end
  -- From the last to the first, so each edit's positions are still those of the text it was made
  -- for; of edits that start at the same place, the longer (then the later) one goes first.
  table.sort(order, function(x, y)
    local a, b = x.edit.range, y.edit.range
    if a.start.line ~= b.start.line then return a.start.line > b.start.line end
    if a.start.character ~= b.start.character then return a.start.character > b.start.character end
    if a['end'].line ~= b['end'].line then return a['end'].line > b['end'].line end
    if a['end'].character ~= b['end'].character then return a['end'].character > b['end'].character end
    return x.index > y.index
  end)
  local cursor = vim.api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local function line_at(index)
    return vim.api.nvim_buf_get_lines(bufnr, index, index + 1, false)[1] or ''
  end
  for _, item in ipairs(order) do
    local range = item.edit.range
    local text = (item.edit.newText or ''):gsub('\r\n', '\n')
    local count = vim.api.nvim_buf_line_count(bufnr)
    local start_row, end_row = range.start.line, range['end'].line
    local start_col = start_row < count and byte_column(line_at(start_row), range.start.character, encoding) or 0
    local end_col = end_row < count and byte_column(line_at(end_row), range['end'].character, encoding) or 0
    -- `macmd.cursorBefore`: an insertion at the very end of the note whose text goes after the
    -- cursor (no character follows to carry it).
    local moves = before_position(end_row, end_col, row, col, true) and not item.edit['macmd.cursorBefore']
    if start_row >= count then
      start_row, start_col = count - 1, #line_at(count - 1)
      text = '\n' .. text
    end
    if end_row >= count then
      end_row, end_col = count - 1, #line_at(count - 1)
      text = text:gsub('\n$', '')
    end
    local lines = vim.split(text, '\n', { plain = true })
    vim.api.nvim_buf_set_text(bufnr, start_row, start_col, end_row, end_col, lines)
    if moves then
      local last_row = start_row + #lines - 1
      local last_col = (#lines == 1 and start_col or 0) + #lines[#lines]
      if end_row == row then
        row, col = last_row, last_col + (col - end_col)
      else
        row = row + (last_row - end_row)
      end
    end
  end
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
end

-- Called by the keys fed after a trigger character (a byte code, so any character is safe).
function M._typed(code)
  M.format_on_type(string.char(code))
end

local function after_typing(ch)
  local client = M.config.editing.format_on_type and editing_client('documentOnTypeFormattingProvider')
  if not client then
    return ''
  end
  local triggers = client.server_capabilities.documentOnTypeFormattingProvider.moreTriggerCharacter or {}
  if not vim.tbl_contains(triggers, ch) then
    return ''
  end
  return string.format("<Cmd>lua require('macmd')._typed(%d)<CR>", string.byte(ch))
end

--- Enter in insert mode: a line break, then the server's list, quote or table continuation.
function M.enter()
  if vim.fn.pumvisible() == 1 or not editing_client('documentOnTypeFormattingProvider') then
    feed('<CR>')
    return
  end
  feed("<CR><Cmd>lua require('macmd')._typed(10)<CR>")
end

-- What a typed character closes, by the character typed last in an open (for <BS> and step-over).
local closing = { ['('] = ')', ['['] = ']', ['{'] = '}', ['`'] = '`', ['*'] = '*', ['_'] = '_',
  ['$'] = '$', ['~'] = '~', ['"'] = '"', ["'"] = "'" }
local closers = { [')'] = true, [']'] = true, ['}'] = true, ['`'] = true, ['*'] = true, ['_'] = true,
  ['$'] = true, ['~'] = true, ['"'] = true, ["'"] = true }

-- The characters whose pair a second one extends (`**`, `__`, `$$`, `~~`).
local extenders = { ['*'] = true, ['_'] = true, ['$'] = true, ['~'] = true }

-- Whether `before` ends with a run of `ch` that opens: at the line start or after a space or
-- punctuation, not after a letter or digit (where it closes).
local function opens_run(before, ch)
  local run = before:find(vim.pesc(ch) .. '+$')
  if run == nil then
    return false
  end
  local previous = before:sub(run - 1, run - 1)
  return previous == '' or previous:match('[%s%p]') ~= nil
end

-- Keys that move the cursor `count` characters left or right without breaking undo.
local function moves(direction, count)
  return string.rep('<C-g>U<' .. direction .. '>', count)
end

-- The keys that type `ch` with the pair the server says closes here: `ch`, the part of the
-- close not already after the cursor (`[|]` + `[` → `[[|]]`), and the moves back between them.
function M.pair_keys(ch, before, after, pairs)
  local text = before .. ch
  for _, pair in ipairs(pairs or {}) do
    local open, close = pair.open, pair.close
    if type(open) == 'string' and type(close) == 'string' and #open > 0 and text:sub(-#open) == open then
      local present = 0
      if #open > 1 then
        -- The close of the shorter pair the first character already wrote (`]` of `[|]`).
        for n = #close - 1, 1, -1 do
          if after:sub(1, n) == close:sub(-n) then
            present = n
            break
          end
        end
      end
      local missing = close:sub(1, #close - present)
      return ch .. missing .. moves('Left', vim.fn.strchars(missing) + 0), pair, 1 + vim.fn.strchars(missing)
    end
  end
  return nil
end

-- A pair whose close the next key may take back (`withdrawOn`): where the cursor stood after
-- the open, the close, the characters that take it back; nil when none is pending.
local pending_withdraw = nil

--- A key that may take back the close of a pair just typed (`$` then `5`: money, not maths).
--- Mapped only while such a pair is pending; the typed character always goes in.
function M.withdraw_key(ch)
  local pending = pending_withdraw
  pending_withdraw = nil
  if pending then
    local cursor = vim.api.nvim_win_get_cursor(0)
    local line = vim.api.nvim_get_current_line()
    if pending.bufnr == vim.api.nvim_get_current_buf() and cursor[1] == pending.row and cursor[2] == pending.col
      and line:sub(cursor[2] + 1, cursor[2] + #pending.close) == pending.close then
      vim.api.nvim_buf_set_text(0, cursor[1] - 1, cursor[2], cursor[1] - 1, cursor[2] + #pending.close, {})
    end
  end
  feed(ch == ' ' and '<Space>' or (ch == '\t' and '<Tab>' or ch))
end

-- Maps the characters of `withdraw` in insert mode until the key after the pair (the
-- `inserted` characters of the pair itself, being fed, come first), or leaving insert mode.
local function expect_withdraw(bufnr, open_bytes, close, withdraw, inserted)
  local cursor = vim.api.nvim_win_get_cursor(0)
  -- The cursor once the open and the close are in: after the open.
  pending_withdraw = { bufnr = bufnr, row = cursor[1], col = cursor[2] + open_bytes, close = close }
  for i = 1, #withdraw do
    local ch = withdraw:sub(i, i)
    local lhs = ch == ' ' and '<Space>' or (ch == '\t' and '<Tab>' or ch)
    if vim.fn.maparg(lhs, 'i') == '' then
      vim.keymap.set('i', lhs, function() M.withdraw_key(ch) end, { buffer = bufnr, desc = 'macmd: take back a pair' })
    end
  end
  local function unmap()
    pending_withdraw = nil
    for i = 1, #withdraw do
      local ch = withdraw:sub(i, i)
      local lhs = ch == ' ' and '<Space>' or (ch == '\t' and '<Tab>' or ch)
      local map = vim.fn.maparg(lhs, 'i', false, true)
      if type(map) == 'table' and map.desc == 'macmd: take back a pair' then
        pcall(vim.keymap.del, 'i', lhs, { buffer = bufnr })
      end
    end
  end
  -- The key after the open ends the wait, whatever it was (scheduled: InsertCharPre may not
  -- change mappings); the mapped key itself checks that it still applies.
  local seen = 0
  vim.api.nvim_create_autocmd({ 'InsertCharPre', 'InsertLeave' }, {
    buffer = bufnr,
    callback = function(args)
      seen = seen + 1
      if args.event == 'InsertCharPre' and seen <= inserted then
        return
      end
      if args.event == 'InsertLeave' then pending_withdraw = nil end
      vim.schedule(unmap)
      return true
    end,
  })
end

--- A pair's opening or closing character typed in insert mode.
function M.type_pair(ch)
  local client = M.config.editing.autopairs and editing_client('experimental', 'macmd', 'pairs')
  local keys = ch == '<' and '<lt>' or ch
  if client then
    local cursor = vim.api.nvim_win_get_cursor(0)
    local line = vim.api.nvim_get_current_line()
    local before, after = line:sub(1, cursor[2]), line:sub(cursor[2] + 1)
    -- Step over the close that is already there, except inside an empty pair of `*`, `_`, `$`
    -- or `~` that opens (`A *|*` + `*` → `A **|**`, but `**b*|*` + `*` → `**b**|`).
    if closers[ch] and after:sub(1, 1) == ch and not (extenders[ch] and opens_run(before, ch)) then
      feed(moves('Right', 1))
      return
    end
    if closing[ch] then
      local bufnr = vim.api.nvim_get_current_buf()
      local hints = client_request_sync(client, 'macmd/pairs',
        { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = cursor_position(client) },
        bufnr, M.config.editing.timeout_ms)
      local paired, pair, inserted = M.pair_keys(ch, before, after, type(hints) == 'table' and hints.pairs or nil)
      if paired then
        feed(paired .. after_typing(ch))
        if type(pair.withdrawOn) == 'string' and pair.withdrawOn ~= '' then
          -- Never at the cost of the key: the pair is already typed.
          pcall(expect_withdraw, bufnr, #ch, pair.close, pair.withdrawOn, inserted)
        end
        return
      end
    end
  end
  feed(keys .. after_typing(ch))
end

--- 'formatexpr' of Markdown buffers: `gq` fills the prose of the lines to 'textwidth' (else the
--- window's width, up to 79, as Vim's own `gq`) and aligns their tables, by the server
--- (textDocument/rangeFormatting with MacMD's `macmd.textWidth`), which leaves headings, code
--- and tables unwrapped and starts no line with what would begin another block. While typing
--- (auto-wrap in insert mode), and when no server answers, Neovim formats as usual.
function M.formatexpr()
  if vim.fn.mode():find('^[iR]') then
    return 1
  end
  local client = editing_client('documentRangeFormattingProvider')
  if not client then
    return 1
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local first = vim.v.lnum - 1
  local last = first + math.max(vim.v.count, 1) - 1
  local last_line = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1] or ''
  local encoding = client.offset_encoding or 'utf-16'
  local width = vim.bo[bufnr].textwidth
  if width == 0 then
    local margin = vim.bo[bufnr].wrapmargin
    width = margin > 0 and (vim.api.nvim_win_get_width(0) - margin) or math.min(79, vim.api.nvim_win_get_width(0) - 1)
  end
  local lines_before = vim.api.nvim_buf_line_count(bufnr)
  local edits = client_request_sync(client, 'textDocument/rangeFormatting', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = first, character = 0 }, ['end'] = { line = last, character = lsp_character(last_line, #last_line, encoding) } },
    options = { tabSize = vim.bo[bufnr].shiftwidth > 0 and vim.bo[bufnr].shiftwidth or vim.bo[bufnr].tabstop,
                insertSpaces = vim.bo[bufnr].expandtab, ['macmd.textWidth'] = width },
  }, bufnr, 2000)
  if type(edits) ~= 'table' then
    return 1
  end
  if #edits > 0 then
    vim.lsp.util.apply_text_edits(edits, bufnr, encoding)
  end
  -- As `gq` leaves it: on the first non-blank of the last line formatted.
  local last_now = math.max(1, math.min(last + 1 + vim.api.nvim_buf_line_count(bufnr) - lines_before, vim.api.nvim_buf_line_count(bufnr)))
  vim.api.nvim_win_set_cursor(0, { last_now, 0 })
  vim.cmd('normal! ^')
  return 0
end

--- <BS> in insert mode: between an empty pair (`(|)`, `[[|]]` one level at a time), both go.
function M.backspace()
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  local previous, next = line:sub(cursor[2], cursor[2]), line:sub(cursor[2] + 1, cursor[2] + 1)
  if M.config.editing.autopairs and previous ~= '' and closing[previous] == next then
    feed('<BS><Del>')
  else
    feed('<BS>')
  end
end

--- Maps the typing keys of a Markdown buffer the macmd client attached to.
function M.attach_editing(client, bufnr)
  local editing = M.config.editing or {}
  local capabilities = client.server_capabilities or {}
  local function map(lhs, callback, desc)
    vim.keymap.set('i', lhs, callback, { buffer = bufnr, desc = 'macmd: ' .. desc })
  end
  if capabilities.documentOnTypeFormattingProvider and editing.list_continuation then
    map('<CR>', M.enter, 'line break with list continuation')
  end
  local pairs_supported = vim.tbl_get and vim.tbl_get(capabilities, 'experimental', 'macmd', 'pairs')
    or (capabilities.experimental and capabilities.experimental.macmd and capabilities.experimental.macmd.pairs)
  local keys = {}
  if pairs_supported and editing.autopairs then
    for ch, _ in pairs(closing) do keys[ch] = true end
    for ch, _ in pairs(closers) do keys[ch] = true end
    map('<BS>', M.backspace, 'delete an empty pair')
  end
  if capabilities.documentOnTypeFormattingProvider and editing.format_on_type then
    for _, ch in ipairs(capabilities.documentOnTypeFormattingProvider.moreTriggerCharacter or {}) do
      keys[ch] = true
    end
  end
  for ch, _ in pairs(keys) do
    local lhs = ch == '|' and '<Bar>' or (ch == '<' and '<lt>' or ch)
    map(lhs, function() M.type_pair(ch) end, 'type ' .. ch)
  end
  -- Neovim 0.10 has vim.snippet but no default <Tab> to jump in it (0.11 maps it).
  if vim.snippet and not has_011 then
    for _, spec in ipairs({ { '<Tab>', 1 }, { '<S-Tab>', -1 } }) do
      vim.keymap.set({ 'i', 's' }, spec[1], function()
        if vim.snippet.active({ direction = spec[2] }) then
          vim.snippet.jump(spec[2])
        else
          feed(spec[1])
        end
      end, { buffer = bufnr, desc = 'macmd: jump in a snippet' })
    end
  end
end

--- Asks the server for the preview of a buffer; handler(err, result) runs on the main loop.
function M.request_preview(bufnr, options, handler)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.client_for(bufnr)
  if client == nil then
    handler({ message = 'no macmd language server is attached to this buffer' }, nil)
    return
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    options = options or {},
  }
  client_request(client, 'macmd/preview', params, function(err, result)
    handler(err, result)
  end, bufnr)
end

--- Opens a page's URL (or a path) in the browser: the configured opener, vim.ui.open on
--- 0.10+, else the OS tool.
function M.open(path)
  local open = M.config.preview.open
  if type(open) == 'function' then
    return open(path)
  end
  local command
  if type(open) == 'table' then
    command = vim.deepcopy(open)
    table.insert(command, path)
  elseif type(open) == 'string' then
    command = { open, path }
  elseif vim.ui and vim.ui.open then
    local _, err = vim.ui.open(path)
    if err then
      notify(err, vim.log.levels.ERROR)
    end
    return
  elseif vim.fn.has('mac') == 1 then
    command = { 'open', path }
  elseif vim.fn.has('win32') == 1 then
    command = { 'cmd.exe', '/c', 'start', '', path }
  else
    command = { 'xdg-open', path }
  end
  if vim.fn.executable(command[1]) ~= 1 then
    notify('cannot open the preview: `' .. command[1] .. '` is missing; the page is ' .. path,
      vim.log.levels.WARN)
    return
  end
  vim.fn.jobstart(command, { detach = true })
end

-- Adds a self-reload to the page, so the browser shows what the last save rendered.
local function with_refresh(html, seconds)
  if not seconds or seconds <= 0 then
    return html
  end
  local meta = string.format('<meta http-equiv="refresh" content="%d">', seconds)
  local head_end = html:find('<head>', 1, true)
  if head_end then
    return html:sub(1, head_end + 5) .. meta .. html:sub(head_end + 6)
  end
  return meta .. html
end

local function write_file(path, text)
  local file, err = io.open(path, 'wb')
  if not file then
    return false, err
  end
  file:write(text)
  file:close()
  return true
end

-- Per-buffer preview state: { path = the page's file, theme = name or nil, opened = bool,
-- line = the 0-based cursor line the page opens at, resources = the files the page shows, as
-- paths (keys) }.
local previews = {}

--- The folder the preview pages are written to: `preview.folder`, else
--- stdpath('cache')/macmd/preview (kept across sessions, unlike vim.fn.tempname()'s folder,
--- which Neovim deletes on exit while the browser still shows the page).
function M.preview_folder()
  return M.config.preview.folder or (vim.fn.stdpath('cache') .. '/macmd/preview')
end

--- The page of a buffer's note: its name and a hash of its path, so each note keeps one page.
local function page_path(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return M.preview_folder() .. '/buffer-' .. bufnr .. '.html'
  end
  local full = vim.fn.fnamemodify(name, ':p')
  local stem = vim.fn.fnamemodify(full, ':t:r'):gsub('[^%w%-_.]', '_')
  return M.preview_folder() .. '/' .. stem .. '-' .. vim.fn.sha256(full):sub(1, 12) .. '.html'
end

--- `text` percent-encoded but for ASCII letters, digits, `-._~` and the bytes in `keep`.
local function url_encoded(text, keep)
  return (text:gsub('[^%w%-._~' .. (keep or '') .. ']', function(byte)
    return string.format('%%%02X', byte:byte())
  end))
end

--- The `file:` URL of a page, at `#id` of the heading the 0-based `line` is under (the
--- result's `headings`), if any.
local function page_url(path, headings, line)
  local url = 'file://' .. url_encoded(path, '/')
  local id
  for _, heading in ipairs(headings or {}) do
    if heading.line <= line then
      id = heading.id
    end
  end
  if id and id ~= '' then
    url = url .. '#' .. url_encoded(id)
  end
  return url
end

--- Renders a buffer's preview page to its file; opens the browser the first time (at the
--- heading above the cursor of :MacMDPreview).
function M.render_preview(bufnr, on_done)
  local state = previews[bufnr]
  if state == nil then
    return
  end
  -- Absolute `file:` URLs, so images and links work from the cache folder.
  local options = { fullPage = true, resources = 'absolute' }
  options.theme = state.theme or M.config.preview.theme
  M.request_preview(bufnr, options, function(err, result)
    if err then
      notify('preview failed: ' .. tostring(err.message or err), vim.log.levels.ERROR)
      if on_done then on_done(err, nil) end
      return
    end
    -- The files the page shows (pictures, embedded notes): saving one renders the page again.
    state.resources = {}
    for _, uri in ipairs(result.resources or {}) do
      state.resources[vim.uri_to_fname(uri)] = true
    end
    vim.fn.mkdir(vim.fn.fnamemodify(state.path, ':h'), 'p')
    local ok, write_err = write_file(state.path, with_refresh(result.html or '', M.config.preview.refresh_seconds))
    if not ok then
      notify('cannot write ' .. state.path .. ': ' .. tostring(write_err), vim.log.levels.ERROR)
    elseif not state.opened then
      state.opened = true
      M.open(page_url(state.path, result.headings, state.line or 0))
    end
    if on_done then on_done(nil, result, state.path) end
  end)
end

-- The note each macmd client's tag pages belong to (any note of its notebook), by client id.
local tag_anchors = {}

--- :MacMDPreview with `preview.server`: the buffer's page from the plugin's web server, opened at
--- the heading above the cursor.
local function serve_preview(bufnr, theme)
  local client = M.client_for(bufnr)
  if client == nil then
    notify('no macmd language server is attached to this buffer', vim.log.levels.ERROR)
    return
  end
  local server = require('macmd.server')
  local port, err = server.start({
    theme = theme or M.config.preview.theme,
    request = function(target, params, handler)
      client_request(target, 'macmd/preview', params, function(request_err, result) handler(request_err, result) end, nil)
    end,
    anchor = function(target) return tag_anchors[target.id] end,
    finish = function(html) return with_refresh(html, M.config.preview.refresh_seconds) end,
  })
  if not port then
    notify('cannot serve the preview: ' .. tostring(err), vim.log.levels.ERROR)
    return
  end
  if not tag_anchors[client.id] then tag_anchors[client.id] = vim.uri_from_bufnr(bufnr) end
  local root = client.config.root_dir and (uv.fs_realpath(client.config.root_dir) or client.config.root_dir)
  local file = vim.api.nvim_buf_get_name(bufnr)
  file = uv.fs_realpath(file) or file
  if not root or file:sub(1, #root + 1) ~= root .. '/' then
    notify('the note is outside its notebook\'s folder; :MacMDPreview needs a saved note', vim.log.levels.ERROR)
    return
  end
  local notes_base = server.bases(client.id)
  local window = vim.fn.bufwinid(bufnr)
  local line = window ~= -1 and (vim.api.nvim_win_get_cursor(window)[1] - 1) or 0
  -- The page's heading ids, for the one above the cursor.
  M.request_preview(bufnr, { sourceLines = false }, function(request_err, result)
    local url = notes_base .. server.encoded(file:sub(#root + 2))
    if not request_err and result then
      local id
      for _, heading in ipairs(result.headings or {}) do
        if heading.line <= line then id = heading.id end
      end
      if id and id ~= '' then url = url .. '#' .. url_encoded(id) end
    end
    M.open(url)
  end)
end

--- Renders again, after any buffer is saved, the pages that show its file (an embedded note):
--- one autocommand for every preview.
local function rerender_pages_showing_saved_files()
  local group = vim.api.nvim_create_augroup('macmd_preview_resources', { clear = true })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    callback = function(args)
      local name = vim.api.nvim_buf_get_name(args.buf)
      local real = uv.fs_realpath(name) or name
      for bufnr, state in pairs(previews) do
        if bufnr ~= args.buf and state.resources and (state.resources[name] or state.resources[real])
            and vim.api.nvim_buf_is_valid(bufnr) then
          -- After the other BufWritePost commands: the client's didSave sends the saved note's
          -- last changes (Neovim 0.7 holds them back up to 150 ms) before the page is asked for.
          vim.schedule(function() M.render_preview(bufnr) end)
        end
      end
    end,
  })
end

--- :MacMDPreview [theme]: renders the buffer, opens it in the browser and re-renders on save
--- (of the note, or of a note it embeds).
function M.preview(theme, bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if theme == '' then
    theme = nil
  end
  if theme and not vim.tbl_contains(M.themes, theme) then
    notify('unknown theme `' .. theme .. '`; one of ' .. table.concat(M.themes, ', '), vim.log.levels.ERROR)
    return
  end
  if M.config.preview.server then
    return serve_preview(bufnr, theme)
  end
  local state = previews[bufnr]
  if state == nil then
    if next(previews) == nil then rerender_pages_showing_saved_files() end
    state = { path = page_path(bufnr), opened = false }
    previews[bufnr] = state
    local group = vim.api.nvim_create_augroup('macmd_preview_' .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd('BufWritePost', {
      group = group,
      buffer = bufnr,
      callback = function()
        M.render_preview(bufnr)
      end,
    })
    vim.api.nvim_create_autocmd({ 'BufWipeout', 'BufDelete' }, {
      group = group,
      buffer = bufnr,
      callback = function()
        previews[bufnr] = nil
        pcall(vim.api.nvim_del_augroup_by_id, group)
      end,
    })
  else
    -- A second :MacMDPreview (maybe with another theme) opens the browser again.
    state.opened = false
  end
  if theme then
    state.theme = theme
  end
  -- The page opens at the heading above the cursor (in this buffer's window, if shown).
  local window = vim.fn.bufwinid(bufnr)
  state.line = window ~= -1 and (vim.api.nvim_win_get_cursor(window)[1] - 1) or 0
  M.render_preview(bufnr)
end

--- The page file of a buffer's preview, or nil when :MacMDPreview has not run in it.
function M.preview_path(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local state = previews[bufnr]
  return state and state.path
end

--- :MacMDFormat: aligns the note's tables (textDocument/formatting), or those of the lines of a
--- range, by the macmd client only, on every Neovim (0.7 has vim.lsp.buf.formatting, 0.8+
--- vim.lsp.buf.format).
function M.format(first, last)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = editing_client('documentFormattingProvider')
  if client == nil then
    notify('no macmd language server is attached to this buffer', vim.log.levels.ERROR)
    return
  end
  local encoding = client.offset_encoding or 'utf-16'
  local options = { tabSize = vim.bo[bufnr].shiftwidth > 0 and vim.bo[bufnr].shiftwidth or vim.bo[bufnr].tabstop,
                    insertSpaces = vim.bo[bufnr].expandtab }
  local method, params = 'textDocument/formatting', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, options = options }
  if first and last then
    local last_line = vim.api.nvim_buf_get_lines(bufnr, last - 1, last, false)[1] or ''
    method = 'textDocument/rangeFormatting'
    params.range = { start = { line = first - 1, character = 0 },
                     ['end'] = { line = last - 1, character = lsp_character(last_line, #last_line, encoding) } }
  end
  local edits = client_request_sync(client, method, params, bufnr, 5000)
  if type(edits) == 'table' and #edits > 0 then
    vim.lsp.util.apply_text_edits(edits, bufnr, encoding)
  end
end

--- :MacMDMentions: the places in other notes that name this note without a link
--- (`macmd/unlinkedMentions`), in the quickfix list, opened; a message when there are none.
--- The code actions on a mention (`vim.lsp.buf.code_action()`) link it.
function M.unlinked_mentions(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = editing_client('experimental', 'macmd', 'unlinkedMentions')
  if client == nil then
    notify('no macmd language server with unlinked mentions is attached to this buffer', vim.log.levels.ERROR)
    return
  end
  local title = 'Unlinked mentions of ' .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t:r')
  client_request(client, 'macmd/unlinkedMentions', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    if err then
      notify('unlinked mentions: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    local items = vim.lsp.util.locations_to_items(result or {}, client.offset_encoding or 'utf-16')
    vim.fn.setqflist({}, ' ', { title = title, items = items })
    if #items > 0 then
      vim.cmd('copen')
    else
      notify('no unlinked mentions of this note')
    end
  end, bufnr)
end

--- :MacMDSearch {query}: the notes of every notebook holding the query's words (`macmd/search`:
--- words, "phrases", tag:, path:, title:), best first, in the quickfix list at their best match
--- with the excerpt as text, opened; a message when nothing matches.
function M.search(query, bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  -- The buffer's server, else any running one (the search is the workspace's: asked from the
  -- quickfix window too).
  local client = M.client_for(bufnr)
  if client == nil then
    local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'macmd' }) or vim.lsp.get_active_clients()
    for _, candidate in pairs(all or {}) do
      if candidate.name == 'macmd' then
        client = candidate
        break
      end
    end
  end
  local capabilities = client and client.server_capabilities or {}
  if not (capabilities.experimental and capabilities.experimental.macmd and capabilities.experimental.macmd.search) then
    notify('no macmd language server with search is running', vim.log.levels.ERROR)
    return
  end
  if query == nil or query:match('^%s*$') then
    notify('search needs a query', vim.log.levels.ERROR)
    return
  end
  client_request(client, 'macmd/search', { query = query, limit = 100 }, function(err, result)
    if err then
      notify('search: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    local items = {}
    for _, hit in ipairs(result or {}) do
      -- One location at a time: locations_to_items sorts what it is given by file.
      local item = vim.lsp.util.locations_to_items({ { uri = hit.uri, range = hit.range } }, client.offset_encoding or 'utf-16')[1]
      if item then
        item.text = hit.excerpt
        table.insert(items, item)
      end
    end
    vim.fn.setqflist({}, ' ', { title = 'Search: ' .. query, items = items })
    if #items > 0 then
      vim.cmd('copen')
    else
      notify('no note matches ' .. query)
    end
  end, bufnr)
end

-- The last counts of each buffer (`macmd/statistics`), and the changedtick they are for.
local statistics_cache = {}

--- The writing statistics of a buffer (`macmd/statistics`): a table `{ words, characters,
--- charactersWithoutSpaces, paragraphs, readingSeconds }`, or nil before the first answer. It
--- never waits: it returns what it has and asks again when the buffer changed since, so it can sit
--- in a statusline (`M.statusline()`). With `range` (`{ start = {line, character}, ['end'] =
--- … }`, LSP positions) it asks for that selection and waits for the answer (at most 1 s).
function M.statistics(bufnr, range)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.client_for(bufnr)
  local capabilities = client and client.server_capabilities or {}
  if not (capabilities.experimental and capabilities.experimental.macmd and capabilities.experimental.macmd.statistics) then
    return nil
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = range }
  if range then
    return client_request_sync(client, 'macmd/statistics', params, bufnr, 1000)
  end
  local cached = statistics_cache[bufnr]
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  if not cached or (cached.tick ~= tick and not cached.asking) then
    cached = cached or {}
    cached.asking = true
    statistics_cache[bufnr] = cached
    client_request(client, 'macmd/statistics', params, function(err, result)
      cached.asking = false
      if not err and result then
        cached.result = result
        cached.tick = tick
        vim.schedule(function() vim.cmd('redrawstatus') end)
      end
    end, bufnr)
  end
  return cached.result
end

--- "412 words · 2 min" for a statusline (`%{v:lua.require'macmd'.statusline()}`); empty until the
--- server has counted, and in buffers without macmd.
function M.statusline()
  local counts = M.statistics(0)
  if not counts then return '' end
  local minutes = counts.words == 0 and 0 or math.max(1, math.floor(counts.readingSeconds / 60 + 0.5))
  return string.format('%d %s · %d min', counts.words, counts.words == 1 and 'word' or 'words', minutes)
end

local function create_command()
  vim.api.nvim_create_user_command('MacMDMentions', function()
    M.unlinked_mentions()
  end, { desc = 'List the unlinked mentions of this note in the quickfix list (MacMD)' })
  vim.api.nvim_create_user_command('MacMDSearch', function(command)
    M.search(command.args)
  end, { nargs = '+', desc = 'Search the text of the notebook, best matches in the quickfix list (MacMD)' })
  vim.api.nvim_create_user_command('MacMDFormat', function(command)
    if command.range > 0 then M.format(command.line1, command.line2) else M.format() end
  end, { range = true, desc = "Align the note's tables with MacMD (or those of the range)" })
  vim.api.nvim_create_user_command('MacMDPreview', function(command)
    M.preview(command.args)
  end, {
    nargs = '?',
    desc = 'Preview this note in the browser with MacMD (optional theme)',
    complete = function(lead)
      return vim.tbl_filter(function(theme)
        return theme:sub(1, #lead) == lead
      end, M.themes)
    end,
  })
end

--- Configures and enables the server. `opts` overrides M.defaults (deep-merged).
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  create_command()
  vim.lsp.commands['macmd.showReferences'] = M.show_references
  vim.api.nvim_create_autocmd('BufWipeout', {
    group = vim.api.nvim_create_augroup('macmd_statistics', { clear = true }),
    callback = function(args) statistics_cache[args.buf] = nil end,
  })
  if M.config.semantic_highlights then
    M.define_highlights()
    vim.api.nvim_create_autocmd('ColorScheme', {
      group = vim.api.nvim_create_augroup('macmd_highlights', { clear = true }),
      callback = M.define_highlights,
    })
  end
  vim.api.nvim_create_autocmd('VimLeavePre', {
    group = vim.api.nvim_create_augroup('macmd_preview_server', { clear = true }),
    callback = function()
      if package.loaded['macmd.server'] then package.loaded['macmd.server'].stop() end
    end,
  })
  local api = M.config.api
  if api == nil then
    api = (has_011 and vim.lsp.config and vim.lsp.enable) and 'config' or (vim.lsp.start and 'start' or 'start_client')
  end
  M.api = api
  if api == 'config' then
    vim.lsp.config('macmd', M.lsp_config())
    vim.lsp.enable('macmd')
    return
  end
  local group = vim.api.nvim_create_augroup('macmd_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers opened before setup() ran get their client too.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and is_markdown(bufnr) then
      M.start(bufnr)
    end
  end
end

return M
