-- Unlinked mentions as a writer meets them in Neovim: the title's code lens counts them after
-- the backlinks, :MacMDMentions fills the quickfix list with their places, and on a mention
-- vim.lsp.buf.code_action() offers "Link to [[compost]]", which links it when chosen (the menu
-- is vim.ui.select, answered here as a writer would pick). NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local report = test.report
test.run_on_note(function(macmd, bufnr)
  local title
  for index, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line == '# Compost' then title = index end
  end
  -- The title's lens, once the scan has ended and the lens is resolved.
  local function lens()
    for _, shown in ipairs(vim.lsp.codelens.get(bufnr)) do
      if shown.range.start.line + 1 == title and shown.command then return shown.command.title end
    end
  end
  vim.wait(30000, function() return (lens() or ''):find('unlinked') ~= nil end, 100)
  report.lens = lens()

  -- :MacMDMentions: the quickfix list, by note, then line.
  vim.fn.setqflist({}, 'r')
  vim.cmd('MacMDMentions')
  vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50)
  report.listTitle = vim.fn.getqflist({ title = 1 }).title
  report.places = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(report.places, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(item.bufnr), ':t') .. ':' .. item.lnum .. ':' .. item.col)
  end
  if #report.places == 0 then
    report.error = 'the quickfix list stayed empty'
    return
  end

  -- The first place, and the code action that links it.
  vim.cmd('cclose')
  vim.cmd('cc 1')
  local mention_buf = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return macmd.client_for(mention_buf) ~= nil end, 20)
  report.offered = {}
  local chosen = false
  vim.ui.select = function(items, opts, on_choice)
    for index, item in ipairs(items) do
      local shown = opts.format_item and opts.format_item(item) or tostring(item)
      table.insert(report.offered, shown)
      if not chosen and shown:find('Link to', 1, true) then
        chosen = true
        on_choice(item, index)
        return
      end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  local row = vim.api.nvim_win_get_cursor(0)[1]
  vim.wait(10000, function()
    return (vim.api.nvim_buf_get_lines(mention_buf, row - 1, row, false)[1] or ''):find('[[compost]]', 1, true) ~= nil
  end, 50)
  report.linked = vim.api.nvim_buf_get_lines(mention_buf, row - 1, row, false)[1]
end)
