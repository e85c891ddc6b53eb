-- Neovim 0.11+ finds this file through `vim.lsp.config` discovery (lsp/<name>.lua on the
-- runtimepath), so `vim.lsp.enable('macmd')` works even without require('macmd').setup{}.
-- The table is the plugin's own, so both ways start the server identically.
return require('macmd').lsp_config()
