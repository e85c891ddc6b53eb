-- Code lenses through Neovim's own client, as a writer sees them: the plugin shows the counts
-- above the title and the headings other notes link to (refreshed when the notebook's first
-- scan ends), and vim.lsp.codelens.run() on a heading's line fills the location list with the
-- links (`macmd.showReferences`); vim.lsp.buf.incoming_calls() on the heading fills the quickfix
-- list with the same links (the backlinks tree). NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local report = test.report
test.run_on_note(function(macmd, bufnr)
  -- The lenses as drawn: the virtual text of the codelens namespaces, by 1-based line.
  local function shown()
    local lenses = {}
    for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
      if lens.command and lens.command.title ~= '' then
        lenses[tostring(lens.range.start.line + 1)] = lens.command.title
      end
    end
    return lenses
  end
  local pH
  for index, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line == '## pH readings' then pH = index end
  end
  -- Every lens resolved, the counts complete (the scan has ended).
  local done = vim.wait(30000, function()
    local lenses = shown()
    return pH and lenses[tostring(pH)] ~= nil and lenses['9'] ~= nil and lenses['9'] ~= '0 backlinks'
  end, 100)
  report.lenses = shown()
  if not done then
    report.error = 'the lenses were not shown within 30 s'
    return
  end
  vim.api.nvim_win_set_cursor(0, { pH, 0 })
  vim.lsp.codelens.run()
  vim.wait(5000, function() return #vim.fn.getloclist(0) > 0 or vim.bo.buftype == 'quickfix' end, 50)
  local list = vim.fn.getloclist(0)
  report.title = vim.fn.getloclist(0, { title = 1 }).title
  report.places = {}
  for _, item in ipairs(list) do
    table.insert(report.places, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(item.bufnr), ':t') .. ':' .. item.lnum)
  end
  -- The backlinks tree: incoming calls of the heading fill the quickfix list with its links.
  vim.cmd('lclose')
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_win_set_cursor(0, { pH, 3 })
  vim.fn.setqflist({}, 'r')
  vim.lsp.buf.incoming_calls()
  vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50)
  report.incoming = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(report.incoming, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(item.bufnr), ':t') .. ':' .. item.lnum)
  end
end)
