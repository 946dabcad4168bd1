-- Loaded by scripts/integration/neovim.mjs after docs/editors/neovim.lua, with the file to check
-- open: waits for the LITMUS server's diagnostics, asks for code actions at a place, and writes what
-- Neovim has to $LITMUS_CHECK_OUT as JSON. Works on Neovim 0.7 and newer.
local out = os.getenv('LITMUS_CHECK_OUT')
local expect = tonumber(os.getenv('LITMUS_EXPECT') or '0')
local line = tonumber(os.getenv('LITMUS_ACTION_LINE') or '-1')
local col = tonumber(os.getenv('LITMUS_ACTION_COL') or '0')
local buf = vim.api.nvim_get_current_buf()

local function ours()
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    local code = d.code or lsp.code
    if d.source == 'litmus' or lsp.source == 'litmus' then
      table.insert(list, { line = d.lnum + 1, column = d.col + 1, code = code, message = d.message })
    end
  end
  return list
end

-- vim.lsp.get_clients (0.10+) gives a list; buf_get_clients (0.7) a map by client id.
local function clients()
  local list = {}
  local found = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
  for _, c in pairs(found) do table.insert(list, c) end
  return list
end

local attached = vim.wait(20000, function() return #clients() > 0 end, 50)
-- Wait for the count the CLI gives, then a moment more: a later publish may change the list.
vim.wait(30000, function() return #ours() >= expect end, 50)
vim.wait(1000, function() return false end, 50)

local root, folders = nil, nil
for _, client in ipairs(clients()) do
  root = client.config.root_dir
  folders = client.workspace_folders
end

local actions = {}
if line >= 1 then
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = line - 1, character = col - 1 }, ['end'] = { line = line - 1, character = col - 1 } },
    context = { diagnostics = {} },
  }
  local results = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 20000) or {}
  for _, r in pairs(results) do
    for _, a in ipairs(r.result or {}) do table.insert(actions, a.title) end
  end
end

local f = io.open(out, 'w')
f:write(vim.fn.json_encode({ attached = attached, root = root or vim.NIL, folders = folders or vim.NIL, diagnostics = ours(), actions = actions, version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) }))
f:close()
vim.cmd('qa!')
