-- The preview's own web server: :MacMDPreview shows a note at http://127.0.0.1:PORT/..., where
-- every page is rendered when the browser asks for it, so a link to another note opens that
-- note's preview, a tag chip opens the tag's page (its notes), images and other files come from
-- the notebook, and the page (which reloads itself) shows the buffer as it is, unsaved edits
-- included.
--
-- Invariants:
--   * Listens on 127.0.0.1 only, on a port the system picks, and answers only URLs under a
--     random token (`/TOKEN/...`), so another user of the machine cannot read the notebook.
--   * Serves only what is inside a notebook's root (a path with `..`, or one whose real path
--     leaves the root, is refused), and only GET and HEAD.
--   * A request is read on libuv's loop; everything that talks to the language server runs on
--     the main loop (vim.schedule). A request that waits longer than 10 s is answered 504.
--
-- URLs: /TOKEN/<client id>/n/<path from the root>  a note's page, or a file of the notebook
--       /TOKEN/<client id>/t/<tag>                 the page of a tag

local M = {}

local uv = vim.uv or vim.loop

local state = { tcp = nil, port = nil, token = nil }

--- Percent-decodes a URL path segment.
local function decoded(text)
  return (text:gsub('%%(%x%x)', function(hex) return string.char(tonumber(hex, 16)) end))
end

--- Percent-encodes a path for a URL (letters, digits, `-._~/` stay).
function M.encoded(text)
  return (text:gsub('[^%w%-._~/]', function(byte) return string.format('%%%02X', byte:byte()) end))
end

local types = {
  png = 'image/png', jpg = 'image/jpeg', jpeg = 'image/jpeg', gif = 'image/gif', svg = 'image/svg+xml',
  webp = 'image/webp', avif = 'image/avif', bmp = 'image/bmp', ico = 'image/x-icon', pdf = 'application/pdf',
  mp3 = 'audio/mpeg', m4a = 'audio/mp4', ogg = 'audio/ogg', wav = 'audio/wav', flac = 'audio/flac',
  mp4 = 'video/mp4', webm = 'video/webm', mov = 'video/quicktime', txt = 'text/plain; charset=utf-8',
  css = 'text/css; charset=utf-8', json = 'application/json', html = 'text/plain; charset=utf-8',
}

local statuses = { [200] = 'OK', [400] = 'Bad Request', [403] = 'Forbidden', [404] = 'Not Found',
  [405] = 'Method Not Allowed', [502] = 'Bad Gateway', [504] = 'Gateway Timeout' }

local function respond(sock, status, content_type, body, head_only)
  if sock:is_closing() then return end
  local header = string.format('HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n'
    .. 'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n',
    status, statuses[status] or 'Error', content_type, #body)
  sock:write(head_only and header or (header .. body), function()
    if not sock:is_closing() then sock:close() end
  end)
end

local function error_page(sock, status, message, head_only)
  local body = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>' .. status .. '</title></head><body><p>'
    .. message:gsub('&', '&amp;'):gsub('<', '&lt;') .. '</p></body></html>'
  respond(sock, status, 'text/html; charset=utf-8', body, head_only)
end

local function read_file(path)
  local file = io.open(path, 'rb')
  if not file then return nil end
  local data = file:read('*a')
  file:close()
  return data
end

--- The root of a macmd client, resolved (no trailing slash).
local function root_of(client)
  local root = client.config and client.config.root_dir
  if not root and client.workspace_folders and client.workspace_folders[1] then
    root = vim.uri_to_fname(client.workspace_folders[1].uri)
  end
  return root and (uv.fs_realpath(root) or root)
end

--- The base URLs of a client's pages: notes and files, and tags.
function M.bases(client_id)
  local prefix = string.format('http://127.0.0.1:%d/%s/%d/', state.port, state.token, client_id)
  return prefix .. 'n/', prefix .. 't/'
end

--- Answers one request: `render(client, uri, tag, options, done)` asks the server for a page.
local function handle(sock, method, target, config)
  local head_only = method == 'HEAD'
  if method ~= 'GET' and method ~= 'HEAD' then
    return error_page(sock, 405, 'Only GET', head_only)
  end
  local path = target:gsub('[?#].*$', '')
  local token, id, kind, rest = path:match('^/([%w]+)/(%d+)/([nt])/(.*)$')
  if token ~= state.token then
    return error_page(sock, 404, 'Not found', head_only)
  end
  local client = vim.lsp.get_client_by_id(tonumber(id))
  if not client or client.name ~= 'macmd' then
    return error_page(sock, 404, 'This notebook is closed: run :MacMDPreview again', head_only)
  end
  local root = root_of(client)
  local notes_base, tags_base = M.bases(client.id)
  local options = { fullPage = true, baseUri = notes_base, tagPages = tags_base, theme = config.theme }
  local answered = false
  local function page(err, result)
    if answered then return end
    answered = true
    if err or type(result) ~= 'table' or type(result.html) ~= 'string' then
      return error_page(sock, 502, 'MacMD: ' .. tostring(err and (err.message or err) or 'no page'), head_only)
    end
    respond(sock, 200, 'text/html; charset=utf-8', config.finish(result.html), head_only)
  end
  vim.defer_fn(function()
    if not answered then
      answered = true
      error_page(sock, 504, 'MacMD did not answer in 10 s', head_only)
    end
  end, 10000)
  if kind == 't' then
    local tag = decoded(rest)
    return config.request(client, { textDocument = { uri = config.anchor(client) }, tag = tag, options = options }, page)
  end
  local relative = decoded(rest)
  if relative == '' or relative:find('%z') or relative:sub(1, 1) == '/' then
    return error_page(sock, 400, 'Bad path', head_only)
  end
  for segment in relative:gmatch('[^/]+') do
    if segment == '..' then return error_page(sock, 403, 'Outside the notebook', head_only) end
  end
  local file = root .. '/' .. relative
  local real = uv.fs_realpath(file)
  if not real or (real ~= root and real:sub(1, #root + 1) ~= root .. '/') then
    return error_page(sock, 404, 'No such file in the notebook: ' .. relative, head_only)
  end
  local stat = uv.fs_stat(real)
  if not stat or stat.type ~= 'file' then
    return error_page(sock, 404, 'No such file in the notebook: ' .. relative, head_only)
  end
  local extension = (relative:match('%.([%w]+)$') or ''):lower()
  if extension == 'md' or extension == 'markdown' then
    -- The buffer when the note is open (its unsaved edits), else the file.
    local uri = vim.uri_from_fname(file)
    return config.request(client, { textDocument = { uri = uri }, options = options }, page)
  end
  answered = true
  local data = read_file(real)
  if not data then return error_page(sock, 404, 'Cannot read ' .. relative, head_only) end
  respond(sock, 200, types[extension] or 'application/octet-stream', data, head_only)
end

--- Starts the server once; returns its port. `config` gives `request(client, params, handler)`
--- (sends macmd/preview), `anchor(client)` (a note of the client's notebook, for tag pages),
--- `finish(html)` (the page as served) and `theme`.
function M.start(config)
  if state.tcp then
    state.config = config
    return state.port
  end
  local tcp = uv.new_tcp()
  local ok = tcp:bind('127.0.0.1', 0)
  if not ok then
    tcp:close()
    return nil, 'cannot listen on 127.0.0.1'
  end
  state.config = config
  tcp:listen(16, function(err)
    if err then return end
    local sock = uv.new_tcp()
    tcp:accept(sock)
    local data = ''
    sock:read_start(function(read_err, chunk)
      if read_err or not chunk then
        if not sock:is_closing() then sock:close() end
        return
      end
      data = data .. chunk
      if #data > 65536 then
        sock:read_stop()
        vim.schedule(function() error_page(sock, 400, 'Request too large') end)
        return
      end
      if not data:find('\r\n\r\n', 1, true) then return end
      sock:read_stop()
      local method, target = data:match('^(%u+) (%S+) HTTP/1%.[01]\r\n')
      vim.schedule(function()
        if not method then return error_page(sock, 400, 'Bad request') end
        local handled, problem = pcall(handle, sock, method, target, state.config)
        if not handled then error_page(sock, 502, 'MacMD: ' .. tostring(problem)) end
      end)
    end)
  end)
  state.tcp = tcp
  state.port = tcp:getsockname().port
  -- 32 hex digits from the system's randomness.
  local urandom = io.open('/dev/urandom', 'rb')
  local bytes = urandom and urandom:read(16) or (tostring(uv.hrtime()) .. tostring(math.random()))
  if urandom then urandom:close() end
  state.token = (bytes:gsub('.', function(c) return string.format('%02x', c:byte()) end)):sub(1, 32)
  return state.port
end

--- Stops the server (the plugin does when Neovim exits).
function M.stop()
  if state.tcp and not state.tcp:is_closing() then state.tcp:close() end
  state.tcp, state.port, state.token = nil, nil, nil
end

--- Whether the server runs, and its port.
function M.port() return state.port end

return M
