-- A wrk script that plays whole games of tile-merge against tileproof
-- serve, signed or unsigned, carrying the state from answer to request as
-- a client must (a signed server takes each state once, so a fixed body
-- would measure its 409s):
--
--   wrk -t2 -c2 -d10s -s server/testdata/wrk/game.lua http://127.0.0.1:8048
--
-- Give one connection a thread (-t N -c N): a thread's requests then go
-- one after another, each with the state of the last answer. Each game
-- starts with init (a seed of its own) and plays the first legal move
-- until the game is over. An answer other than 200 starts a new game, and
-- wrk counts it among "Non-2xx or 3xx responses": there should be none.
local state, move, seq = nil, "left", 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function request()
  if state == nil then
    seq = seq + 1
    return wrk.format("GET", "/api/games/tile-merge/init?seed=wrk-" .. tostring(tid) .. "-" .. seq)
  end
  return wrk.format("POST", "/api/games/tile-merge/action", { ["Content-Type"] = "application/json" },
    '{"state":' .. state .. ',"action":{"type":"move","direction":"' .. move .. '"}}')
end

function response(status, headers, body)
  if status ~= 200 then
    state = nil
    return
  end
  -- The state holds no object but prev (not in tile-merge): %b{} takes it whole.
  local s = body:match('"state":(%b{})')
  local d = body:match('"legalActions":%[{"type":"move","direction":"(%a+)"')
  if s == nil or d == nil or body:find('"gameOver":true', 1, true) then
    state = nil
  else
    state, move = s, d
  end
end
