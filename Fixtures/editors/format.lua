-- :MacMDFormat and gq in headless Neovim, on every version: the plugin's 'formatexpr', a table
-- aligned by the command (0.7 has no vim.lsp.buf.format), prose filled by gq around a table that
-- gq leaves alone. NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
vim.cmd('filetype plugin indent on')

local function lines(bufnr) return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') end

local function run()
  local macmd = require('macmd')
  test.setup(macmd)
  local bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  if not bufnr then return end
  local client = macmd.client_for(bufnr)
  vim.wait(10000, function() return next(client.server_capabilities or {}) ~= nil end, 20)
  report.formatexpr = vim.bo[bufnr].formatexpr
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, {
    '# Beds', '', '| bed | crop |', '|-|-|', '| A | beans and more beans |', '',
    'A paragraph long enough that it runs past forty columns and has to be wrapped, twice over.',
  })
  vim.cmd('MacMDFormat')
  report.formatted = lines(bufnr)
  vim.bo[bufnr].textwidth = 40
  vim.api.nvim_win_set_cursor(0, { 7, 0 })
  vim.cmd('normal! gqap')
  -- gq on the table: aligned already, and never wrapped.
  vim.api.nvim_win_set_cursor(0, { 3, 0 })
  vim.cmd('normal! gqap')
  report.wrapped = lines(bufnr)
  vim.bo[bufnr].modified = false
end

test.finish_on_enter(run)
