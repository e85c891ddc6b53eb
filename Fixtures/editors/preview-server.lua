-- :MacMDPreview with the plugin's web server (preview.server, the default), in headless Neovim:
-- the URL it opens is written to $MACMD_TEST_OUT/url, a line is added to the buffer without a
-- save, and Neovim serves the pages until $MACMD_TEST_OUT/quit appears. NeovimTests.swift
-- browses them in Chromium meanwhile: follows a note link and a tag chip, loads the images.
local test = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*)/') .. '/macmd_test.lua')
local env, report = test.env, test.report
vim.cmd('filetype on')
local out = env('MACMD_TEST_OUT')

local function write(name, text)
  local file = assert(io.open(out .. '/' .. name .. '.part', 'wb'))
  file:write(text)
  file:close()
  assert(os.rename(out .. '/' .. name .. '.part', out .. '/' .. name))
end

local function run()
  local macmd = require('macmd')
  local opened = {}
  test.setup(macmd, { preview = { open = function(url) table.insert(opened, url) end, refresh_seconds = 0 } })
  local bufnr = test.edit_attached(macmd, env('MACMD_TEST_NOTE'))
  if not bufnr then return end
  -- The cursor under the note's second heading: the page opens there.
  vim.api.nvim_win_set_cursor(0, { tonumber(env('MACMD_TEST_LINE')), 0 })
  -- Unsaved words, which the served page must show.
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { '', 'Words typed and not saved.' })
  vim.cmd('MacMDPreview')
  if not vim.wait(30000, function() return #opened > 0 end, 20) then
    report.error = ':MacMDPreview opened nothing'
    return
  end
  report.opened = opened
  write('url', opened[1])
  -- Serve until the test is done with the pages.
  if not vim.wait(90000, function() return vim.loop.fs_stat(out .. '/quit') ~= nil end, 20) then
    report.error = 'the test never said it was done'
  end
  report.modified = vim.bo[bufnr].modified
  vim.bo[bufnr].modified = false
end

test.finish_on_enter(run)
