-- The typing suite's harness for Neovim (0.7 and current), run in a terminal as
--   nvim -u Fixtures/editors/typing/nvim.lua -i NONE --noplugin
-- with the plugin set up as a writer's init.lua sets it up. The protocol (environment, ready-N,
-- result-N.txt, F12, done, error.txt) is in README.md beside this file.

local function env(name) return (assert(os.getenv(name), name .. ' is not set')) end
local out = env('MACMD_TEST_OUT')

-- Writes a file of the protocol whole: under another name first, then renamed, so the test never
-- reads it half written.
local function write(name, text)
  local path = out .. '/' .. name
  local file = assert(io.open(path .. '.part', 'wb'))
  file:write(text or '')
  file:close()
  assert(os.rename(path .. '.part', path))
end

local function fail(message)
  write('error.txt', message)
  vim.cmd('qall!')
end

-- A writer's setup: the plugin on the runtimepath, Markdown's filetype plugin and indent, the
-- completion menu that waits for CTRL-Y.
vim.opt.runtimepath:prepend(env('MACMD_TEST_PLUGIN'))
vim.opt.swapfile = false
vim.opt.completeopt = 'menuone,noinsert'
vim.cmd('filetype plugin indent on')
vim.cmd('syntax on')

local function read(path)
  local file = assert(io.open(path, 'rb'))
  local text = file:read('*a')
  file:close()
  return text
end

local cases = vim.fn.json_decode(read(env('MACMD_TEST_CASES')))
local current = 0
local bufnr

-- Puts case `current` in the buffer, the cursor at its `$0`, in insert mode, and says so.
local function set_up()
  local case = cases[current]
  local text = case.text
  local at = text:find('$0', 1, true)
  text = text:sub(1, at - 1) .. text:sub(at + 2)
  local before = text:sub(1, at - 1)
  local row = select(2, before:gsub('\n', '')) + 1
  local col = #before - (before:match('.*\n()') or 1) + 1
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.bo[bufnr].textwidth = case.width or 0
  local line = vim.api.nvim_buf_get_lines(bufnr, row - 1, row, false)[1]
  if col >= #line then
    vim.api.nvim_win_set_cursor(0, { row, math.max(#line - 1, 0) })
    vim.cmd('startinsert!')
  else
    vim.api.nvim_win_set_cursor(0, { row, col })
    vim.cmd('startinsert')
  end
  write('ready-' .. current, '')
end

-- F12: the case's buffer is recorded, then the next case (or the end).
function TypingRecord()
  if vim.snippet and vim.snippet.active() then vim.snippet.stop() end
  if current > 0 then
    write('result-' .. current .. '.txt', table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n'))
  end
  current = current + 1
  -- Normal mode first, whatever the keys left (insert, a snippet's select mode, a menu).
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-\\><C-n>', true, false, true), 'n', false)
  vim.schedule(function()
    if current > #cases then
      write('done', '')
      vim.cmd('qall!')
    else
      set_up()
    end
  end)
end

local function start()
  local macmd = require('macmd')
  macmd.setup({ cmd = { env('MACMD_TEST_BIN'), 'lsp' }, log_file = env('MACMD_TEST_SERVER_LOG'), log_level = 'debug' })
  vim.cmd('edit ' .. vim.fn.fnameescape(env('MACMD_TEST_NOTE')))
  bufnr = vim.api.nvim_get_current_buf()
  for _, mode in ipairs({ 'n', 'i', 's', 'x', 'o' }) do
    vim.keymap.set(mode, '<F12>', '<Cmd>lua TypingRecord()<CR>')
  end
  if not vim.wait(30000, function()
    local client = macmd.client_for(bufnr)
    return client ~= nil and next(client.server_capabilities or {}) ~= nil and vim.fn.maparg('<CR>', 'i') ~= ''
  end, 20) then
    return fail('the macmd client did not attach and map its keys within 30 s')
  end
  TypingRecord()
end

vim.api.nvim_create_autocmd('VimEnter', {
  nested = true,
  callback = function()
    local ok, message = pcall(start)
    if not ok then fail('lua: ' .. tostring(message)) end
  end,
})
