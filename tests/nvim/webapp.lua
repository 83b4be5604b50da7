-- Drives Neovim for tests/nvim.rs on examples/webapp, after the guide's
-- configuration has been loaded as init.lua and network.pp opened. It
-- records what the set-up gives the buffer (file type, highlighting, omni
-- function, mappings), counts the diagnostics the server publishes, asks
-- for a hover, then types an expression and completes it with <C-x><C-o>
-- (the omni function answers asynchronously, in insert mode, so that part
-- runs from a timer while Neovim reads the typed keys). It writes what it
-- saw as JSON to $PCL_NVIM_OUT and always quits.

local timeout_ms = tonumber(os.getenv("PCL_NVIM_TIMEOUT_MS")) or 10000
local result = { published = 0 }
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)

-- Counts the publications for the open file, also empty ones.
local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
  if params and params.uri == uri then
    result.published = result.published + 1
  end
  return publish(err, params, ctx, config)
end

local function clients_of(b)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = b })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(b))
end

local function finish()
  local file = io.open(os.getenv("PCL_NVIM_OUT"), "w")
  if file then
    file:write(vim.fn.json_encode(result))
    file:close()
  end
  vim.cmd("qa!")
end

local function check()
  result.filetype = vim.bo[buf].filetype
  result.syntax = vim.b[buf].current_syntax or vim.NIL
  result.omnifunc = vim.bo[buf].omnifunc
  result.commentstring = vim.bo[buf].commentstring
  result.mappings = {}
  for _, keys in ipairs({ "K", "gd", "gr", "[d", "]d" }) do
    result.mappings[keys] = next(vim.fn.maparg(keys, "n", false, true)) ~= nil
  end
  result.attached = vim.wait(timeout_ms, function()
    return #clients_of(buf) > 0
  end, 20)
  local line, character = os.getenv("PCL_NVIM_HOVER_LINE"), os.getenv("PCL_NVIM_HOVER_CHARACTER")
  local params = {
    textDocument = { uri = uri },
    position = { line = tonumber(line), character = tonumber(character) },
  }
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, timeout_ms)
  result.hover = {}
  for _, answer in pairs(answers or {}) do
    if answer.error then
      table.insert(result.hover, "error: " .. vim.inspect(answer.error))
    elseif answer.result and answer.result.contents then
      table.insert(result.hover, answer.result.contents.value or vim.inspect(answer.result.contents))
    end
  end
  -- The open is checked at once, before the hover is answered.
  vim.wait(timeout_ms, function()
    return result.published > 0
  end, 20)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    table.insert(result.diagnostics, d.message)
  end
end

local ok, err = pcall(check)
if not ok then
  result.error = tostring(err)
  finish()
  return
end

-- A new line at the end, `probe = inst`, completed by the omni function.
local keys = vim.api.nvim_replace_termcodes("Goprobe = inst<C-x><C-o>", true, false, true)
vim.api.nvim_feedkeys(keys, "nt", false)
local deadline = vim.loop.now() + timeout_ms
local function poll()
  local info = vim.fn.complete_info({ "items", "mode" })
  if #info.items > 0 or vim.loop.now() > deadline then
    result.completion_mode = info.mode
    result.completion = {}
    for _, item in ipairs(info.items) do
      table.insert(result.completion, item.word)
    end
    result.mode = vim.fn.mode()
    finish()
  else
    vim.defer_fn(poll, 20)
  end
end
vim.defer_fn(poll, 20)
