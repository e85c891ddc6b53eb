-- Writing statistics in Neovim, as a statusline shows them: `require('macmd').statusline()` is
-- empty until the server has counted, then "N words · M min", and follows the writer's edits;
-- `require('macmd').statistics(0, range)` counts a selection. NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local report = test.report
test.run_on_note(function(macmd, bufnr)
  vim.opt.statusline = "%f %{v:lua.require'macmd'.statusline()}"
  vim.wait(10000, function() return macmd.statusline() ~= '' end, 50)
  report.first = macmd.statusline()
  report.counts = macmd.statistics(0)
  -- A new paragraph of five words at the end: the statusline follows.
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { '', 'Five more words for you.' })
  local before = report.counts and report.counts.words or 0
  vim.wait(10000, function()
    local counts = macmd.statistics(0)
    return counts ~= nil and counts.words == before + 5
  end, 50)
  report.after = macmd.statistics(0)
  -- A selection: the new line alone.
  local last = vim.api.nvim_buf_line_count(bufnr) - 1
  report.selection = macmd.statistics(0, { start = { line = last, character = 0 }, ['end'] = { line = last, character = 24 } })
end)
