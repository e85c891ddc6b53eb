-- Completes wiki-links and a heading through the MacMD plugin in headless Neovim: the plugin's
-- omnifunc in insert mode and Neovim's own apply_text_edits. Run by
-- Tests/EditorTests/NeovimTests.swift, which reads the JSON report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
-- The menu shows even for one match, so CTRL-Y accepts it (without a menu CTRL-Y would
-- copy the character above the cursor).
vim.opt.completeopt = 'menuone,noinsert'
vim.cmd('filetype on')

local function run()
  local macmd = require('macmd')
  local bufnr, client = test.start(macmd)
  if not bufnr then return end
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
test.write_report()
for _, client in pairs(vim.lsp.get_active_clients and vim.lsp.get_active_clients() or vim.lsp.get_clients()) do
  client.stop()
end
vim.wait(2000, function() return #(vim.lsp.get_active_clients and vim.lsp.get_active_clients() or vim.lsp.get_clients()) == 0 end, 20)
vim.cmd('qa!')
