-- Types the cases of typing.json into a Markdown buffer of headless Neovim with the MacMD
-- plugin, and writes what each buffer reads afterwards into a JSON report
-- (Tests/EditorTests/NeovimTypingTests.swift compares it with the expectations).
--
-- Environment: MACMD_TEST_PLUGIN (editors/nvim), MACMD_TEST_BIN (macmd), MACMD_TEST_NOTE (an
-- empty note in a notebook folder), MACMD_TEST_CASES (typing.json), MACMD_TEST_REPORT,
-- MACMD_TEST_SERVER_LOG. Each case: `text` with a `$0` cursor, `keys` typed in insert mode from
-- that cursor (then <Esc>), `since`/`before` a Neovim version the case needs or predates.

local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
report.cases = {}
vim.opt.completeopt = 'menuone,noinsert'
-- What a writer has: Markdown's filetype plugin and indent (autoindent is on by default).
vim.cmd('filetype plugin indent on')

local function read(path)
  local file = assert(io.open(path, 'rb'))
  local text = file:read('*a')
  file:close()
  return text
end

local function has(version_string)
  return vim.fn.has('nvim-' .. version_string) == 1
end

local function finish()
  test.write_report()
  local clients = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, client in pairs(clients) do
    if vim.fn.has('nvim-0.11') == 1 then client:stop() else client.stop() end
  end
  vim.wait(2000, function()
    return #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) == 0
  end, 20)
  vim.cmd('qa!')
end

local cases, bufnr, current, chunks = {}, nil, 0, {}

-- Starts the next case: its text and cursor, then its keys as a writer's input
-- (`nvim_input`: what Neovim and the plugin feed in reaction, such as a snippet selecting its
-- first placeholder, runs before the next key), ending with a key that records the buffer.
local function next_case()
  current = current + 1
  local case = cases[current]
  if case == nil then
    finish()
    return
  end
  local text = case.text
  local cursor = text:find('$0', 1, true)
  text = text:sub(1, cursor - 1) .. text:sub(cursor + 2)
  local before = text:sub(1, cursor - 1)
  local row = select(2, before:gsub('\n', '')) + 1
  local col = #before - (before:match('.*\n()') or 1) + 1
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(text, '\n', { plain = true }))
  local line = vim.api.nvim_buf_get_lines(bufnr, row - 1, row, false)[1]
  local start = 'i'
  if col > 0 and col >= #line then
    col, start = #line - 1, 'a'
  end
  vim.api.nvim_win_set_cursor(0, { row, col })
  -- CTRL-\ CTRL-N first: normal mode whatever the last case left (a snippet's select mode).
  -- The keys go in as chunks that end after each CTRL-Y and <Tab>, half a second apart: a writer
  -- sees the accepted item or the next tab stop before typing on (a snippet selects its
  -- placeholder with keys Neovim feeds after those it has already read).
  chunks = { '<C-\\><C-n>' .. start }
  local keys = case.keys
  while true do
    local stop = select(2, keys:find('<C%-y>')) or select(2, keys:find('<Tab>'))
    if stop == nil then break end
    local tab = select(2, keys:find('<Tab>'))
    stop = tab and math.min(stop, tab) or stop
    chunks[#chunks] = chunks[#chunks] .. keys:sub(1, stop)
    table.insert(chunks, '')
    keys = keys:sub(stop + 1)
  end
  chunks[#chunks] = chunks[#chunks] .. keys .. '<Esc><Cmd>lua TypingCaseDone()<CR>'
  TypingNextChunk()
end

function TypingNextChunk()
  vim.api.nvim_input(table.remove(chunks, 1))
  if #chunks > 0 then
    vim.defer_fn(TypingNextChunk, 500)
  end
end

function TypingCaseDone()
  if vim.snippet and vim.snippet.active() then
    vim.snippet.stop()
  end
  report.cases[cases[current].name] = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  vim.schedule(next_case)
end

local function run()
  local macmd = require('macmd')
  macmd.setup({ cmd = { env('MACMD_TEST_BIN'), 'lsp' }, log_file = env('MACMD_TEST_SERVER_LOG'), log_level = 'debug' })
  report.api = macmd.api
  bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  if not bufnr then return false end
  local client = macmd.client_for(bufnr)
  if not vim.wait(30000, function() return next(client.server_capabilities or {}) ~= nil end, 20) then
    report.error = 'the server did not initialize within 30 s'
    return false
  end
  -- The keys the plugin maps once the server has answered.
  if not vim.wait(5000, function() return vim.fn.maparg('<CR>', 'i') ~= '' end, 20) then
    report.error = 'the plugin mapped no <CR>'
    return false
  end
  for _, case in ipairs(vim.fn.json_decode(read(env('MACMD_TEST_CASES')))) do
    if (case.since == nil or has(case.since)) and (case.before == nil or not has(case.before)) then
      table.insert(cases, case)
    end
  end
  return true
end

vim.api.nvim_create_autocmd('VimEnter', {
  nested = true,
  callback = function()
    local ok, started = pcall(run)
    if not ok then report.error = 'lua: ' .. tostring(started) end
    if ok and started then
      vim.schedule(next_case)
    else
      finish()
    end
  end,
})
