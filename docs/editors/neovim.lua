-- LITMUS Lint in Neovim 0.7 or newer (init.lua). The server: litmus-language-server (README: Install)
-- LITMUS files are JSON with comments; *.litmus.jsonl holds one case per line.
local litmus = {
  jsonc = { '*.litmus.json', '*.litmus.jsonc', '*.tools.json', '*.tools.jsonc', '*.env.json', '*.env.jsonc',
    '*.scores.json', 'litmus.config.json', 'litmus.harness.json' },
  jsonl = { '*.litmus.jsonl' },
}

-- The suite root, as the CLI finds it: the outermost folder with a litmus.config.json up to the
-- repository root (the nearest folder with a .git), else that root. A nested config is part of the
-- suite above it.
local function suite_root(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  local root = nil
  while true do
    if vim.loop.fs_stat(dir .. '/litmus.config.json') then root = dir end
    if vim.loop.fs_stat(dir .. '/.git') then return root or dir end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then return root end
    dir = parent
  end
end

local capabilities = vim.lsp.protocol.make_client_capabilities()
-- Editing a tool file re-lints every case that uses it, open or not, when the server may watch
-- files: Neovim 0.10+ can (with inotifywait, from inotify-tools, on Linux); older ones cannot, and
-- the server then reads files afresh on every lint.
if vim.fn.has('nvim-0.10') == 1 then
  capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration = true }
end

local clients = {}
local function attach(buf)
  local file = vim.api.nvim_buf_get_name(buf)
  local root = suite_root(file)
  local config = {
    name = 'litmus_lint',
    cmd = { 'litmus-language-server', '--stdio' },
    -- No marker: no workspace folder; the server lints the file with the files beside it.
    root_dir = root,
    workspace_folders = root and { { uri = vim.uri_from_fname(root), name = root } } or nil,
    capabilities = capabilities,
    settings = { litmus = { run = 'onType', rules = {} } },
  }
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = buf })
    return
  end
  -- Neovim 0.7: one client per suite root, started by hand.
  local key = root or file
  if not clients[key] or vim.lsp.client_is_stopped(clients[key]) then clients[key] = vim.lsp.start_client(config) end
  if clients[key] then vim.lsp.buf_attach_client(buf, clients[key]) end
end

for filetype, patterns in pairs(litmus) do
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    pattern = patterns,
    callback = function(args)
      vim.bo[args.buf].filetype = filetype
      attach(args.buf)
    end,
  })
end
