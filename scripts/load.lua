-- wrk script for scripts/load.sh: every request is a random valid state of
-- one of the games, or a match request (create, read, move), so the server
-- sees the mix a busy frontend would send. Matches to read come from
-- matches.lua, written by load.sh before the run.

local matches = dofile(os.getenv("KIBITZ_LOAD_MATCHES"))
local json_headers = { ["Content-Type"] = "application/json" }
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
end

function init(args)
  math.randomseed(os.time() * 1000 + (seed or 0))
end

local function board_3x3()
  -- At most two marks each: nobody has a line, so every board is legal.
  local cells = { ".", ".", ".", ".", ".", ".", ".", ".", "." }
  local marks = math.random(0, 4)
  for i = 1, marks do
    local at
    repeat at = math.random(1, 9) until cells[at] == "."
    cells[at] = (i % 2 == 1) and "X" or "O"
  end
  return string.format('["%s","%s","%s"]',
    table.concat(cells, "", 1, 3), table.concat(cells, "", 4, 6), table.concat(cells, "", 7, 9))
end

local function pig()
  local goal = 100
  local my = math.random(0, goal - 1)
  local body = string.format('{"my_score":%d,"opponent_score":%d,"turn_total":%d,"variant":"%s"}',
    my, math.random(0, goal - 1), math.random(0, goal - my), math.random() < 0.5 and "standard" or "progressive")
  return wrk.format("POST", "/pig/decision", json_headers, body)
end

local function tictactoe()
  return wrk.format("POST", "/tictactoe/move", json_headers, '{"board":' .. board_3x3() .. '}')
end

local take_sets = { "[1,2,3]", "[1,3,4]", "[2,5,7]", "[3,7,19,40]" }
local function ishitori()
  -- Heaps up to 2^64-1, written as decimal strings.
  local digits = {}
  local n = math.random(2, 19) -- at least 10 stones: every take set has a move
  for i = 1, n do digits[i] = tostring(math.random(i == 1 and 1 or 0, 9)) end
  local body = string.format('{"remaining":"%s","take":%s,"misere":%s}', table.concat(digits),
    take_sets[math.random(1, #take_sets)], math.random() < 0.5 and "true" or "false")
  return wrk.format("POST", "/ishitori/move", json_headers, body)
end

local function number_square()
  local rows = {}
  for r = 1, 4 do
    local row = {}
    for c = 1, 4 do row[c] = tostring(math.random(1, 16)) end
    rows[r] = "[" .. table.concat(row, ",") .. "]"
  end
  local body = '{"board":[' .. table.concat(rows, ",") .. '],"max_ms":25}'
  return wrk.format("POST", "/number-square/move", json_headers, body)
end

local function nine_square()
  local rows = {}
  for r = 1, 9 do
    local row = {}
    for c = 1, 9 do
      local x = math.random()
      row[c] = x < 0.15 and "X" or (x < 0.3 and "O" or ".")
    end
    rows[r] = '"' .. table.concat(row) .. '"'
  end
  local body = string.format('{"board":[%s],"player":"%s","dice":%d,"max_ms":25}', table.concat(rows, ","),
    math.random() < 0.5 and "X" or "O", math.random(1, 6))
  return wrk.format("POST", "/nine-square/move", json_headers, body)
end

local new_matches = {
  '{"game":"tictactoe","ai_first":true}',
  '{"game":"ishitori","ai_first":true}',
  '{"game":"pig","ai_first":true}',
  '{"game":"number-square","options":{"size":4},"ai_first":true}',
  '{"game":"nine-square","ai_first":true}',
}
local function create_match()
  return wrk.format("POST", "/matches", json_headers, new_matches[math.random(1, #new_matches)])
end

local function read_match()
  local m = matches[math.random(1, #matches)]
  return wrk.format("GET", "/matches/" .. m.id, { ["Authorization"] = "Bearer " .. m.token })
end

-- Weights: mostly lookups and cheap searches, some matches, a few budgeted searches.
local mix = {
  { 30, pig }, { 20, tictactoe }, { 15, ishitori }, { 5, number_square }, { 5, nine_square },
  { 10, create_match }, { 15, read_match },
}
local total = 0
for _, m in ipairs(mix) do total = total + m[1] end

function request()
  local x = math.random(1, total)
  for _, m in ipairs(mix) do
    x = x - m[1]
    if x <= 0 then return m[2]() end
  end
  return pig()
end

-- KIBITZ_LOAD_DEBUG=1: print the first few non-2xx answers (to find out why).
if os.getenv("KIBITZ_LOAD_DEBUG") then
  local shown = 0
  function response(status, headers, body)
    if (status < 200 or status > 299) and shown < 5 then
      shown = shown + 1
      io.stderr:write(status .. " " .. body .. "\n")
    end
  end
end
