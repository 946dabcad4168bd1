-- LITMUS Lint in Neovim 0.11+ (init.lua). The server: npm install -g litmus-lint
-- LITMUS files are JSON with comments; *.litmus.jsonl holds one case per line.
vim.filetype.add({
  pattern = {
    ['.*%.litmus%.jsonl'] = 'jsonl',
    ['.*%.litmus%.jsonc?'] = 'jsonc',
    ['.*%.tools%.jsonc?'] = 'jsonc',
    ['.*%.env%.jsonc?'] = 'jsonc',
    ['.*%.scores%.json'] = 'jsonc',
    ['.*/litmus%.config%.json'] = 'jsonc',
    ['.*/litmus%.harness%.json'] = 'jsonc',
  },
})

vim.lsp.config('litmus_lint', {
  cmd = { 'litmus-language-server', '--stdio' },
  filetypes = { 'json', 'jsonc', 'jsonl' },
  root_markers = { 'litmus.config.json', '.git' },
  -- Editing a tool file re-lints every case that uses it, open or not, when the server may watch
  -- files. Neovim turns file watching off on Linux: turn it on (it uses inotifywait, from inotify-tools).
  capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), {
    workspace = { didChangeWatchedFiles = { dynamicRegistration = true } },
  }),
  settings = { litmus = { run = 'onType', rules = {} } },
})
vim.lsp.enable('litmus_lint')
