-- The plugin's help and health check in headless Neovim: `:helptags` on a copy of doc/macmd.txt
-- and `:help` finds its tags; `:checkhealth macmd` with the server attached, then with a `cmd`
-- that is not executable, which must also be said once (vim.notify, a warning) however many
-- notes are opened. NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
vim.cmd('filetype on')

local function buffer_text()
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end

-- `:checkhealth macmd` opens its report in a new tab; its text, then back to the note.
local function checkhealth()
  vim.cmd('checkhealth macmd')
  local text = buffer_text()
  vim.cmd('tabclose')
  return text
end

local function run()
  -- Help: the doc folder copied, as a plugin manager installs it, then :helptags and :help.
  local docs = env('MACMD_TEST_DOCS')
  vim.opt.runtimepath:prepend(docs)
  vim.cmd('helptags ' .. vim.fn.fnameescape(docs .. '/doc'))
  report.help = {}
  for _, tag in ipairs({ 'macmd', 'macmd-setup', ':MacMDPreview', 'macmd-options', 'macmd-keymaps', 'macmd-health' }) do
    local ok = pcall(vim.cmd, 'help ' .. tag)
    if ok then
      report.help[tag] = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t') .. ':' .. vim.api.nvim_get_current_line()
      vim.cmd('helpclose')
    end
  end

  local warnings = {}
  vim.notify = function(message, level)
    if level == vim.log.levels.WARN then table.insert(warnings, message) end
  end
  local macmd = require('macmd')
  macmd.setup({ cmd = { env('MACMD_TEST_BIN'), 'lsp' } })
  local bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  if not bufnr then return end
  report.healthy = checkhealth()

  -- The executable missing: the clients stop, setup names a command that is nowhere.
  vim.lsp.stop_client(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients())
  vim.wait(5000, function() return macmd.client_for(bufnr) == nil end, 20)
  macmd.setup({ cmd = { 'macmd-not-installed', 'lsp' } })
  for _, name in ipairs({ 'first.md', 'second.md' }) do
    vim.cmd('edit ' .. vim.fn.fnameescape(env('MACMD_TEST_WORK') .. '/' .. name))
  end
  vim.wait(500, function() return false end, 20)
  report.warnings = warnings
  report.attached = macmd.client_for(0) ~= nil
  report.missing = checkhealth()
end

test.finish_on_enter(run)
