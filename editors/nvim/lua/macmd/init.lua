-- MacMD for Neovim: starts `macmd lsp` for Markdown buffers and adds :MacMDPreview.
--
-- Invariants:
--   * One code path per Neovim API generation, chosen once by feature test, never by guess:
--     0.11+ `vim.lsp.config` + `vim.lsp.enable`; 0.8-0.10 `vim.lsp.start`;
--     0.7 `vim.lsp.start_client` + `vim.lsp.buf_attach_client` (Debian bookworm ships 0.7).
--   * A workspace root is the nearest folder upwards holding `.git` (a folder, or a file in a
--     git worktree) or `.macmd.json`; without one it is the note's own folder. One client per root.
--   * `macmd/preview` goes only to the macmd client, never to the other servers on the buffer.
--   * Nothing here blocks the editor: previews are asynchronous requests.

local M = {}

local uv = vim.uv or vim.loop
local has_011 = vim.fn.has('nvim-0.11') == 1

--- The defaults `setup(opts)` merges the user's options into.
M.defaults = {
  -- The command that starts the server; `macmd` must be on PATH unless this names a path.
  cmd = { 'macmd', 'lsp' },
  filetypes = { 'markdown' },
  root_markers = { '.git', '.macmd.json' },
  -- Extra arguments for `macmd lsp`, e.g. log_file = '/tmp/macmd.log', log_level = 'debug'.
  log_file = nil,
  log_level = nil,
  -- Sent as `initializationOptions` and answered to `workspace/configuration` (section `macmd`).
  settings = {},
  -- Called as on_attach(client, bufnr) after the server attaches to a buffer.
  on_attach = nil,
  -- Set the buffer's 'omnifunc' to require('macmd').omnifunc (i_CTRL-X_CTRL-O completes
  -- links, headings and tags) unless the user set another one (Markdown's default HTML tag
  -- completion and the generic LSP one are replaced).
  omnifunc = true,
  capabilities = nil,
  -- Which client API starts the server: nil picks the newest this Neovim has; 'config'
  -- (vim.lsp.config/enable, 0.11+), 'start' (vim.lsp.start, 0.8+) or 'start_client' (0.7)
  -- force one, which the tests use to run the older paths on a newer Neovim.
  api = nil,
  preview = {
    -- The preview theme; nil lets the server use its setting (default `light`).
    theme = nil,
    -- A full page that reloads itself every N seconds, so a save shows up in the browser without
    -- touching it; 0 writes the page as the server made it (then reload the tab by hand).
    refresh_seconds = 2,
    -- How to open the page: nil uses vim.ui.open (0.10+), else xdg-open / open / start.
    -- A list is a command the file path is appended to; a function is called with the path.
    open = nil,
  },
}

M.config = vim.deepcopy(M.defaults)

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

--- The configuration for Neovim 0.11's `vim.lsp.config('macmd', …)` (also read by lsp/macmd.lua).
function M.lsp_config()
  local config = M.client_config()
  config.root_markers = M.config.root_markers
  -- A function root_dir wins over root_markers and adds the "else the note's folder" fallback.
  config.root_dir = function(bufnr, on_dir)
    on_dir(M.root_dir(vim.api.nvim_buf_get_name(bufnr)))
  end
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
  if after <= 0 then
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  local stop = math.min(#line, cursor[2] + after)
  if stop > cursor[2] then
    vim.api.nvim_buf_set_text(0, cursor[1] - 1, cursor[2], cursor[1] - 1, stop, {})
  end
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
      table.insert(omni_items, {
        word = edit.newText,
        abbr = item.label,
        menu = item.detail or '',
        icase = 1,
        dup = 1,
        user_data = { macmd = { after = after } },
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
  if vim.fn.executable(cmd[1]) ~= 1 then
    notify('`' .. cmd[1] .. '` is not executable; set cmd in require("macmd").setup{}', vim.log.levels.ERROR)
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

--- Opens a file in the browser: the configured opener, vim.ui.open on 0.10+, else the OS tool.
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

-- Per-buffer preview state: { path = temp html file, theme = name or nil, opened = bool }.
local previews = {}

--- Renders a buffer's preview page to its temp file; opens the browser the first time.
function M.render_preview(bufnr, on_done)
  local state = previews[bufnr]
  if state == nil then
    return
  end
  local options = { fullPage = true }
  options.theme = state.theme or M.config.preview.theme
  M.request_preview(bufnr, options, function(err, result)
    if err then
      notify('preview failed: ' .. tostring(err.message or err), vim.log.levels.ERROR)
      if on_done then on_done(err, nil) end
      return
    end
    local ok, write_err = write_file(state.path, with_refresh(result.html or '', M.config.preview.refresh_seconds))
    if not ok then
      notify('cannot write ' .. state.path .. ': ' .. tostring(write_err), vim.log.levels.ERROR)
    elseif not state.opened then
      state.opened = true
      M.open(state.path)
    end
    if on_done then on_done(nil, result, state.path) end
  end)
end

--- :MacMDPreview [theme]: renders the buffer, opens it in the browser and re-renders on save.
function M.preview(theme, bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if theme == '' then
    theme = nil
  end
  if theme and not vim.tbl_contains(M.themes, theme) then
    notify('unknown theme `' .. theme .. '`; one of ' .. table.concat(M.themes, ', '), vim.log.levels.ERROR)
    return
  end
  local state = previews[bufnr]
  if state == nil then
    state = { path = vim.fn.tempname() .. '-macmd-preview.html', opened = false }
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
  M.render_preview(bufnr)
end

--- The temp file of a buffer's preview, or nil when :MacMDPreview has not run in it.
function M.preview_path(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local state = previews[bufnr]
  return state and state.path
end

local function create_command()
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
