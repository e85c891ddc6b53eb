-- Create note and definition through Neovim's own LSP client, as `gra` and CTRL-] use them: the
-- code actions offered on a broken wiki-link (Neovim announces resource operations and no
-- documentChanges flag) and Neovim applying the chosen one; where a link to a note lands.
-- NeovimTests.swift checks the report.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
vim.cmd('filetype on')

local function run()
  local macmd = require('macmd')
  local bufnr, client = test.start(macmd)
  if not bufnr then return end
  local encoding = client.offset_encoding or 'utf-16'
  -- Cross-note problems come once the notebook is indexed.
  vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.message:find('greenhouse', 1, true) then return true end
    end
    return false
  end, 50)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local row, col
  for index, line in ipairs(lines) do
    local found = line:find('[[greenhouse]]', 1, true)
    if found then row, col = index - 1, found + 2 break end
  end
  local position = { line = row, character = col }
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = row })) do
    table.insert(diagnostics, d.user_data and d.user_data.lsp or {
      range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
      message = d.message, code = d.code, severity = d.severity })
  end
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = position, ['end'] = position },
    context = { diagnostics = diagnostics },
  }, 10000)
  local actions = responses and responses[client.id] and responses[client.id].result or {}
  report.actions = {}
  local create
  for _, action in ipairs(actions) do
    table.insert(report.actions, action.title)
    if action.title:find('greenhouse', 1, true) and action.edit then create = action end
  end
  if create then
    vim.lsp.util.apply_workspace_edit(create.edit, encoding)
    local created = vim.fn.fnamemodify(env('MACMD_TEST_NOTE'), ':h') .. '/greenhouse.md'
    report.created = vim.loop.fs_stat(created) ~= nil or vim.fn.bufexists(created) == 1
    local created_buffer = vim.fn.bufnr(created)
    if created_buffer ~= -1 then
      vim.fn.bufload(created_buffer)
      report.createdText = table.concat(vim.api.nvim_buf_get_lines(created_buffer, 0, -1, false), '\n')
    end
  end
  -- Definition of `[[tomato-varieties]]` (a link to a whole note, whose front matter comes
  -- first) lands on its title line.
  vim.api.nvim_set_current_buf(bufnr)
  local link_row, link_col
  for index, line in ipairs(lines) do
    local found = line:find('[[tomato-varieties]]', 1, true)
    if found then link_row, link_col = index - 1, found + 3 break end
  end
  local definition = vim.lsp.buf_request_sync(bufnr, 'textDocument/definition', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = link_row, character = link_col },
  }, 10000)
  local result = definition and definition[client.id] and definition[client.id].result or {}
  local target = result[#result] or result
  if target and target.uri then
    local file = vim.uri_to_fname(target.uri)
    local all = vim.fn.readfile(file)
    report.definition = vim.fn.fnamemodify(file, ':t') .. ':' .. (target.range.start.line + 1) .. ': ' .. (all[target.range.start.line + 1] or '')
  end
  for _, buffer in ipairs(vim.api.nvim_list_bufs()) do vim.bo[buffer].modified = false end
end

test.finish_on_enter(run)
