-- Drives Neovim for tests/nvim.rs, after the README's configuration has
-- been loaded as init.lua and the first file of the program opened. It
-- waits for the diagnostics of that file, opens a second file of the same
-- program, asks for a hover there, and writes what it saw as JSON to
-- $PCL_NVIM_OUT. It always quits, also when something fails, so that the
-- Rust side never waits for its own timeout unless Neovim itself hangs.

local timeout_ms = tonumber(os.getenv("PCL_NVIM_TIMEOUT_MS")) or 10000
local v = vim.version()
local result = { version = string.format("%d.%d.%d", v.major, v.minor, v.patch) }

-- The clients attached to a buffer (`get_clients` from Neovim 0.10,
-- `buf_get_clients` before).
local function clients_of(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

local function all_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

local function run()
  local first = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[first].filetype
  result.diagnostics_arrived = vim.wait(timeout_ms, function()
    return #vim.diagnostic.get(first) > 0
  end, 20)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(first)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(result.diagnostics, {
      line = d.lnum,
      col = d.col,
      severity = d.severity,
      code = d.code or lsp.code,
      message = d.message,
    })
  end

  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("PCL_NVIM_SECOND")))
  local second = vim.api.nvim_get_current_buf()
  result.second_filetype = vim.bo[second].filetype
  result.second_attached = vim.wait(timeout_ms, function()
    return #clients_of(second) > 0
  end, 20)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(second) },
    position = {
      line = tonumber(os.getenv("PCL_NVIM_HOVER_LINE")),
      character = tonumber(os.getenv("PCL_NVIM_HOVER_CHARACTER")),
    },
  }
  local answers = vim.lsp.buf_request_sync(second, "textDocument/hover", params, timeout_ms)
  result.hover = {}
  for _, answer in pairs(answers or {}) do
    if answer.error then
      table.insert(result.hover, "error: " .. vim.inspect(answer.error))
    elseif answer.result and answer.result.contents then
      local contents = answer.result.contents
      table.insert(result.hover, contents.value or vim.inspect(contents))
    end
  end
  result.clients = {}
  for _, client in ipairs(all_clients()) do
    table.insert(result.clients, client.name)
  end
end

local ok, err = pcall(run)
if not ok then
  result.error = tostring(err)
end
local file = io.open(os.getenv("PCL_NVIM_OUT"), "w")
if file then
  file:write(vim.fn.json_encode(result))
  file:close()
end
vim.cmd("qa!")
