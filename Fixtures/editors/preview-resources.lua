-- Drives :MacMDPreview on a note of a notebook in headless Neovim: where the page is written,
-- the URL it opens at (the heading above the cursor), and the page itself, whose image and
-- link URLs NeovimTests.swift checks are absolute and lead to files that exist; then a save of
-- the note the page embeds a section of, which renders the page again.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
vim.cmd('filetype on')

local function run()
  local macmd = require('macmd')
  local opened = {}
  test.setup(macmd, { preview = { server = false, open = function(url) table.insert(opened, url) end } })
  report.cache = vim.fn.stdpath('cache')
  local bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  if not bufnr then return end
  -- Until the notebook's first scan has reached soil-tests.md, a wiki-link to it is left as
  -- written; wait for the scan, as a user's second look would.
  local client = macmd.client_for(bufnr)
  local resolved = vim.wait(30000, function()
    local responses = vim.lsp.buf_request_sync(bufnr, 'macmd/preview',
      { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, options = { sourceLines = false } }, 5000)
    local response = responses and responses[client.id]
    local html = response and response.result and response.result.html or ''
    return html:find('href="../soil-tests.md"', 1, true) ~= nil
  end, 50)
  if not resolved then
    report.error = 'the wiki-links of the note were not resolved within 30 s'
    return
  end
  -- Each :MacMDPreview opens the page at the heading above the cursor (1-based lines here).
  report.opened = {}
  for _, line in ipairs({ 24, 1, 12 }) do
    vim.api.nvim_win_set_cursor(0, { line, 0 })
    local count = #opened
    vim.cmd('MacMDPreview')
    if not vim.wait(30000, function() return #opened > count end, 20) then
      report.error = ':MacMDPreview opened no page at line ' .. line
      return
    end
    table.insert(report.opened, opened[#opened])
  end
  report.pagePath = macmd.preview_path(bufnr)
  local function page()
    local file = io.open(report.pagePath, 'rb')
    local text = file:read('*a')
    file:close()
    return text
  end
  report.page = page()
  -- The page embeds a section of soil-tests.md: saving that note renders the page again.
  local embedded = vim.fn.fnamemodify(env('MACMD_TEST_NOTE'), ':h:h') .. '/soil-tests.md'
  vim.cmd('edit ' .. vim.fn.fnameescape(embedded))
  local line = vim.fn.search('^## pH readings')
  vim.api.nvim_buf_set_lines(0, line, line, false, { '', 'Checked again in May.' })
  vim.cmd('write')
  report.embedRefreshed = vim.wait(30000, function() return page():find('Checked again in May.', 1, true) ~= nil end, 50)
end

test.finish_on_enter(run)
