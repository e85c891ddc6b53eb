-- :checkhealth macmd: the `macmd` executable and its version, the Neovim version and API the
-- plugin uses, the root markers, and which buffers have a macmd client.
--
-- Invariants: works on every Neovim the plugin supports (vim.health.start/ok/… from 0.10,
-- vim.health.report_* on 0.8-0.9, require('health').report_* on 0.7); only reads state, never
-- starts a server.

local M = {}

local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local fail = health.error or health.report_error
local info = health.info or health.report_info

local function macmd_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = 'macmd' })
  end
  local clients = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == 'macmd' then
      table.insert(clients, client)
    end
  end
  return clients
end

local function attached_buffers(client)
  local buffers = {}
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.lsp.buf_is_attached(bufnr, client.id) then
      table.insert(buffers, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'))
    end
  end
  return buffers
end

function M.check()
  local macmd = require('macmd')
  local config = macmd.config

  start('macmd: Neovim')
  local version = vim.version()
  local text = string.format('%d.%d.%d', version.major, version.minor, version.patch)
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. text .. ' (the plugin supports 0.7 and later)')
  else
    fail('Neovim ' .. text .. ': the plugin needs 0.7 or later')
  end
  if macmd.api then
    info('setup() ran; the server starts through the `' .. macmd.api .. '` API')
  else
    warn('require("macmd").setup() has not run', { 'Call it in init.lua; see :help macmd-setup' })
  end

  start('macmd: executable')
  local cmd = type(config.cmd) == 'table' and config.cmd or { config.cmd, 'lsp' }
  local program = cmd[1]
  if vim.fn.executable(program) == 1 then
    ok('`' .. program .. '` is ' .. vim.fn.exepath(program))
    local output = vim.fn.system({ program, '--version' })
    if vim.v.shell_error == 0 then
      ok('`' .. program .. ' --version`: ' .. vim.trim(output))
    else
      warn('`' .. program .. ' --version` failed: ' .. vim.trim(output))
    end
    info('the server command: ' .. table.concat(cmd, ' '))
  else
    fail('`' .. tostring(program) .. '` is not executable', {
      'Install macmd (Scripts/install.sh puts it in ~/.local/bin) and put it on PATH',
      'or give its path: require("macmd").setup({ cmd = { "/path/to/macmd", "lsp" } })',
    })
  end

  start('macmd: notebooks')
  info('root markers (the nearest folder upwards with one is the notebook): ' .. table.concat(config.root_markers, ', '))
  local clients = macmd_clients()
  if #clients == 0 then
    warn('no macmd client is running', { 'Open a Markdown file (filetype ' .. table.concat(config.filetypes, ', ') .. ')' })
  end
  for _, client in ipairs(clients) do
    local buffers = attached_buffers(client)
    ok(string.format('client %d, root %s, attached to %d buffer(s): %s', client.id,
      tostring(client.config.root_dir), #buffers, table.concat(buffers, ', ')))
  end
end

return M
