-- Neovim shows the notebook's diagnostics on a note opened as soon as the server starts (the
-- first scan still running): after the scan, the cross-note problems too, in the language of
-- the environment (Neovim sends no locale). Neovim 0.7 is pushed to; 0.10+ pulls, without
-- being able to be asked to pull again.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report

local function run()
  local macmd = require('macmd')
  test.setup(macmd)
  local bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  if not bufnr then return end
  vim.wait(20000, function() return #vim.diagnostic.get(bufnr) >= 4 end, 50)
  report.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(report.diagnostics, string.format('%d %s', d.lnum + 1, d.message))
  end
  table.sort(report.diagnostics)
end

test.finish_on_enter(run)
