-- Drives the MacMD plugin in headless Neovim: attach, macmd/preview, :MacMDPreview, a save,
-- incremental sync. Run by Tests/EditorTests/NeovimTests.swift, which reads the JSON report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
vim.cmd('filetype on')

local function clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients() end
  return vim.lsp.get_active_clients()
end

local function run()
  local macmd = require('macmd')
  local opened = {}
  local api = os.getenv('MACMD_TEST_API')
  if api == '' then api = nil end
  report.api = api
  if (api == 'start' and not vim.lsp.start) or (api == 'start_client' and not vim.lsp.start_client) then
    report.unavailable = true
    return
  end
  test.setup(macmd, { api = api, preview = { server = false, open = function(path) table.insert(opened, path) end } })

  report.api = macmd.api
  local bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  report.filetype = vim.bo[vim.api.nvim_get_current_buf()].filetype
  if not bufnr then return end
  local client = macmd.client_for(bufnr)
  report.root = client.config.root_dir
  local responses, err = vim.lsp.buf_request_sync(bufnr, 'macmd/preview',
    { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 30000)
  if not responses then report.error = 'buf_request_sync: ' .. tostring(err); return end
  local response = responses[client.id]
  if not response then report.error = 'no response from the macmd client'; return end
  if response.error or response.err then
    report.error = 'macmd/preview: ' .. vim.inspect(response.error or response.err)
    return
  end
  report.title = response.result.title
  report.wordCount = response.result.wordCount
  report.html = response.result.html:sub(1, 200)

  -- :MacMDPreview on a copy of the note, then an edit and a save re-render the page.
  local copy = test.edit_attached(macmd, env('MACMD_TEST_COPY'), 'to the copy')
  if not copy then return end
  report.copyRoot = macmd.client_for(copy).config.root_dir
  vim.cmd('MacMDPreview dark')
  if not vim.wait(30000, function() return #opened > 0 end, 20) then
    report.error = ':MacMDPreview opened no page'
    return
  end
  report.openedURL = opened[1]
  report.pagePath = macmd.preview_path(copy)
  local file = io.open(report.pagePath, 'rb')
  report.pageStart = file:read('*a'):sub(1, 1200)
  file:close()
  vim.api.nvim_buf_set_lines(copy, -1, -1, false, { '', '## Added before the save' })
  vim.cmd('write')
  report.refreshedOnSave = vim.wait(30000, function()
    local page = io.open(report.pagePath, 'rb')
    local text = page:read('*a')
    page:close()
    return text:find('Added before the save', 1, true) ~= nil
  end, 20)
  report.opened = #opened

  -- Incremental sync through a real client: edits with characters outside the BMP (two
  -- UTF-16 units, four UTF-8 bytes), a replacement inside a line, a multi-line insertion and
  -- a deletion; then the preview of the buffer must equal `macmd render` of the saved file.
  vim.api.nvim_buf_set_lines(copy, 20, 20, false, { 'Émoji 😀 line with **bold** and 𝄞 #tag' })
  vim.api.nvim_buf_set_text(copy, 20, 7, 20, 11, { '🎉 and ü' })
  vim.api.nvim_buf_set_text(copy, 12, 0, 12, 0, { '> quoted 𝄞 first', '> second ', '' })
  vim.api.nvim_buf_set_lines(copy, 30, 32, false, {})
  vim.api.nvim_buf_set_text(copy, 0, 0, 0, 0, { '' })
  vim.cmd('write')
  local synced = vim.lsp.buf_request_sync(copy, 'macmd/preview',
    { textDocument = { uri = vim.uri_from_bufnr(copy) } }, 30000)
  local answer = synced and synced[macmd.client_for(copy).id]
  if not answer or not answer.result then
    report.error = 'macmd/preview after the edits: ' .. vim.inspect(answer)
    return
  end
  report.syncedHTML = answer.result.html

  for _, c in pairs(clients()) do
    if vim.fn.has('nvim-0.11') == 1 then c:stop() else c.stop() end
  end
  report.stopped = vim.wait(10000, function() return #clients() == 0 end, 20)
end

test.finish_on_enter(run)
