-- What the Neovim scripts of Tests/EditorTests share (as macmd-test.el does for the Emacs ones):
-- the environment the tests give, the JSON report, the plugin on the runtimepath, and the end of
-- a run. A script loads it with
--   local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local M = {}

--- The environment variable `name`, which the test must have set.
function M.env(name) return (assert(os.getenv(name), name .. ' is not set')) end

local version = vim.version()
--- The report the script fills and `finish_on_enter` writes to $MACMD_TEST_REPORT.
M.report = { nvim = string.format('%d.%d.%d', version.major, version.minor, version.patch) }

vim.opt.runtimepath:prepend(M.env('MACMD_TEST_PLUGIN'))
vim.opt.swapfile = false

--- Sets the plugin up as the tests run it: the built macmd, its debug log in the test's folder,
--- and `options` on top.
function M.setup(macmd, options)
  macmd.setup(vim.tbl_deep_extend('force', {
    cmd = { M.env('MACMD_TEST_BIN'), 'lsp' },
    log_file = M.env('MACMD_TEST_SERVER_LOG'),
    log_level = 'debug',
  }, options or {}))
end

--- `setup`, then edits $MACMD_TEST_NOTE and waits for the client: the buffer and the client, or
--- nil with `report.error` set.
function M.start(macmd, options)
  M.setup(macmd, options)
  local bufnr = M.edit_attached(macmd, M.env('MACMD_TEST_NOTE'))
  if not bufnr then return nil end
  return bufnr, macmd.client_for(bufnr)
end

--- Writes the report as JSON to $MACMD_TEST_REPORT.
function M.write_report()
  local out = io.open(M.env('MACMD_TEST_REPORT'), 'w')
  out:write(vim.fn.json_encode(M.report))
  out:close()
end

--- Edits `path` and waits up to 30 s for macmd's client to attach to the buffer: the buffer,
--- or nil with `report.error` saying that it did not attach (`failure`, by default "within 30 s").
function M.edit_attached(macmd, path, failure)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  if not vim.wait(30000, function() return macmd.client_for(bufnr) ~= nil end, 20) then
    M.report.error = 'the macmd client did not attach ' .. (failure or 'within 30 s')
    return nil
  end
  return bufnr
end

--- Runs `run` once Neovim has started (nested, so an `:edit` inside fires FileType, which
--- starts the client), records its error, writes the report and quits.
function M.finish_on_enter(run)
  vim.api.nvim_create_autocmd('VimEnter', {
    nested = true,
    callback = function()
      local ok, message = pcall(run)
      if not ok then M.report.error = 'lua: ' .. tostring(message) end
      M.write_report()
      vim.cmd('qall!')
    end,
  })
end

--- The whole of a script about one note: with filetype detection on, once Neovim has started
--- and macmd's client has attached to $MACMD_TEST_NOTE, runs `body(macmd, bufnr)`; then writes
--- the report and quits.
function M.run_on_note(body)
  vim.cmd('filetype on')
  M.finish_on_enter(function()
    local macmd = require('macmd')
    local bufnr = M.start(macmd)
    if not bufnr then return end
    body(macmd, bufnr)
  end)
end

return M
