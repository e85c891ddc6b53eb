-- Full-text search as a writer meets it in Neovim: :MacMDSearch fills the quickfix list with the
-- notes holding the words, best first, each at its best match with the excerpt as its text, and
-- says so when nothing matches. NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local report = test.report
test.run_on_note(function(macmd, bufnr)
  local function search(query)
    vim.fn.setqflist({}, 'r')
    vim.cmd('MacMDSearch ' .. query)
    vim.wait(30000, function() return vim.fn.getqflist({ title = 1 }).title:find(query, 1, true) ~= nil end, 50)
    local places = {}
    for _, item in ipairs(vim.fn.getqflist()) do
      table.insert(places, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(item.bufnr), ':t') .. ':' .. item.lnum .. ':' .. item.col)
    end
    return places
  end
  report.places = search('"weed seeds"')
  report.listTitle = vim.fn.getqflist({ title = 1 }).title
  report.firstText = (vim.fn.getqflist()[1] or {}).text
  report.tagged = search('watering tag:garden')
  local messages = {}
  local notify = vim.notify
  vim.notify = function(message, level) table.insert(messages, message) end
  vim.cmd('MacMDSearch nothinglikethis')
  vim.wait(10000, function() return #messages > 0 end, 50)
  vim.notify = notify
  report.none = messages[1]
end)
