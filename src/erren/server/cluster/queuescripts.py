"""The Lua scripts of the shared quick-match queues (:mod:`.matching` says what each does and
why): each runs atomically in Redis and builds its key names from the prefix it is given."""

from __future__ import annotations

__all__ = [
    "AWAY",
    "CANCEL",
    "DROP_AWAY",
    "FREE",
    "JOIN",
    "LEAVE",
    "REQUEUE",
    "TAKE",
    "UNREQUEUE",
]

# the one place of an account: its table's id, or QUEUE_MARK .. room
PLACE = """
local function place_of(prefix, user)
  local held = redis.call('GET', prefix .. 'seat:' .. user)
  if not held then return nil, nil end
  if string.sub(held, 1, 6) == 'queue:' then return 'waiting', string.sub(held, 7) end
  return 'seated', held
end
-- a queue's skills: the hash queue .. '#skill' of user -> 'SKILL|SINCE_MS' (matching.py)
local function unqueue(queue, user)
  for _, entry in ipairs(redis.call('LRANGE', queue, 0, -1)) do
    if string.match(entry, '^([^|]+)|') == user then redis.call('LREM', queue, 0, entry) end
  end
  redis.call('HDEL', queue .. '#skill', user)
end
local function is_away(prefix, user)
  return redis.call('EXISTS', prefix .. 'away:' .. user) == 1
end
"""

JOIN = (
    PLACE
    + """
local prefix, user, name, room = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local wait_ms, table, seat_ms = ARGV[5], ARGV[6], ARGV[7]
local now, repeat_ms, again = tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10] == '1'
local resume_only = ARGV[12] == '1'
local base, per_s, longest_ms = tonumber(ARGV[14]), tonumber(ARGV[15]), tonumber(ARGV[16])
local by_skill = ARGV[18] == '1'
local barred = {}
for id in string.gmatch(ARGV[17], '[^,]+') do barred[id] = true end
local mark = 'queue:' .. room
local seat_key = prefix .. 'seat:' .. user
local kind, where = place_of(prefix, user)
local away = kind == 'waiting' and is_away(prefix, user)
local resumed = false
if again then
  -- a waiting player tries again: only if he still waits there (else his inbox has the news)
  if kind ~= 'waiting' or where ~= room or away then return {'gone', where or ''} end
elseif away and where == room then
  -- his own wait, away: present again, in its place
  resumed = true
  redis.call('DEL', prefix .. 'away:' .. user, prefix .. 'inbox:' .. user)
  redis.call('PEXPIRE', seat_key, wait_ms)
elseif resume_only then
  if kind and not away then return {kind, where} end
  return {'lost', ''}
elseif away then
  -- his away wait in another room yields to this request
  unqueue(prefix .. 'q:' .. where, user)
  redis.call('DEL', prefix .. 'away:' .. user, seat_key)
elseif kind then
  return {kind, where}
end
local queue = prefix .. 'q:' .. room
local skills = queue .. '#skill'
-- the player's skill and the start of his wait: a waiting one's own (none: put back, any gap
-- is 0 with him), a newcomer's from the node
local skill, since = tonumber(ARGV[13]), now
if again or resumed then
  local own = redis.call('HGET', skills, user)
  skill, since = nil, now
  if own then
    local s, t = string.match(own, '^([^|]+)|(.+)$')
    skill, since = tonumber(s), tonumber(t)
  end
end
local soonest, best, best_gap, best_met = -1, nil, nil, nil
for _, entry in ipairs(redis.call('LRANGE', queue, 0, -1)) do
  local other = string.match(entry, '^([^|]+)|')
  if other == user then
    if not again and not resumed then redis.call('LREM', queue, 0, entry) end  -- a leftover
  elseif redis.call('GET', prefix .. 'seat:' .. other) ~= mark then
    redis.call('LREM', queue, 0, entry)  -- he no longer waits here
    redis.call('HDEL', skills, other)
  elseif not is_away(prefix, other) and not barred[other] then
    -- an away player keeps his place, paired with nobody; a blocked one is never paired
    local low, high = other, user
    if tonumber(low) > tonumber(high) then low, high = user, other end
    local met_key = prefix .. 'met:' .. low .. ':' .. high
    local met = redis.call('GET', met_key)
    local left = 0
    if met then left = tonumber(met) + repeat_ms - now end
    -- the window: the wider of the two (the longer wait) must admit the gap
    local gap, waited = 0, now - since
    local theirs = redis.call('HGET', skills, other)
    if theirs then
      local s, t = string.match(theirs, '^([^|]+)|(.+)$')
      if skill then gap = math.abs(skill - tonumber(s)) end
      if now - tonumber(t) > waited then waited = now - tonumber(t) end
    end
    local opens = 0
    if gap > base then
      opens = longest_ms
      if per_s > 0 then opens = math.min((gap - base) / per_s * 1000, longest_ms) end
    end
    if opens - waited > left then left = opens - waited end
    if left >= 1 then
      if soonest < 0 or left < soonest then soonest = math.ceil(left) end
    else
      if not by_skill then gap = 0 end
      if best == nil or gap < best_gap then best, best_gap, best_met = entry, gap, met_key end
    end
  end
end
if best then
  local other = string.match(best, '^([^|]+)|')
  redis.call('LREM', queue, 0, best)
  redis.call('HDEL', skills, other)
  unqueue(queue, user)
  redis.call('SET', prefix .. 'seat:' .. other, table, 'PX', seat_ms)
  redis.call('SET', seat_key, table, 'PX', seat_ms)
  if repeat_ms > 0 then redis.call('SET', best_met, ARGV[8], 'PX', repeat_ms) end
  local inbox = prefix .. 'inbox:' .. other
  redis.call('RPUSH', inbox, table .. '|' .. user .. '|' .. name)
  redis.call('PEXPIRE', inbox, ARGV[11])
  return {'paired', best}
end
if resumed then return {'resumed', room, soonest} end
if not again then
  redis.call('DEL', prefix .. 'inbox:' .. user)
  redis.call('RPUSH', queue, user .. '|' .. name)
  redis.call('HSET', skills, user, ARGV[13] .. '|' .. ARGV[8])
  if redis.call('PTTL', skills) < tonumber(wait_ms) then
    redis.call('PEXPIRE', skills, wait_ms)
  end
  redis.call('SET', seat_key, mark, 'PX', wait_ms)
end
return {'queued', room, soonest}
"""
)

CANCEL = (
    PLACE
    + """
local prefix, user = ARGV[1], ARGV[2]
local kind, where = place_of(prefix, user)
if kind ~= 'waiting' then return {kind or 'idle', where or ''} end
unqueue(prefix .. 'q:' .. where, user)
redis.call('DEL', prefix .. 'seat:' .. user, prefix .. 'away:' .. user)
local inbox = prefix .. 'inbox:' .. user
redis.call('RPUSH', inbox, 'cancelled')
redis.call('PEXPIRE', inbox, ARGV[3])
return {'cancelled', where}
"""
)

LEAVE = (
    PLACE
    + """
local prefix, user, room = ARGV[1], ARGV[2], ARGV[3]
unqueue(prefix .. 'q:' .. room, user)
local kind, where = place_of(prefix, user)
if kind ~= 'waiting' or where ~= room then return 0 end
redis.call('DEL', prefix .. 'seat:' .. user)
return 1
"""
)

TAKE = """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, 6) == 'queue:' and redis.call('EXISTS', KEYS[2]) == 1 then
  -- an away wait yields to the seat
  local queue = ARGV[3] .. 'q:' .. string.sub(held, 7)
  for _, entry in ipairs(redis.call('LRANGE', queue, 0, -1)) do
    if string.match(entry, '^([^|]+)|') == ARGV[4] then redis.call('LREM', queue, 0, entry) end
  end
  redis.call('HDEL', queue .. '#skill', ARGV[4])
  redis.call('DEL', KEYS[2])
  held = false
end
if not held then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ''
end
if held == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return ''
end
return held
"""

AWAY = (
    PLACE
    + """
local prefix, user, room, token, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local kind, where = place_of(prefix, user)
if kind ~= 'waiting' or where ~= room then return 0 end
redis.call('SET', prefix .. 'away:' .. user, token, 'PX', ttl)
redis.call('PEXPIRE', prefix .. 'seat:' .. user, ttl)
return 1
"""
)

DROP_AWAY = (
    PLACE
    + """
local prefix, user, room, token = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('GET', prefix .. 'away:' .. user) ~= token then return 0 end
redis.call('DEL', prefix .. 'away:' .. user)
unqueue(prefix .. 'q:' .. room, user)
local kind, where = place_of(prefix, user)
if kind == 'waiting' and where == room then redis.call('DEL', prefix .. 'seat:' .. user) end
return 1
"""
)

REQUEUE = (
    PLACE
    + """
local prefix, user, name, room, table = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local token, ttl = ARGV[6], ARGV[7]
if redis.call('GET', prefix .. 'seat:' .. user) ~= table then return 0 end
local queue = prefix .. 'q:' .. room
unqueue(queue, user)
redis.call('LPUSH', queue, user .. '|' .. name)
redis.call('SET', prefix .. 'seat:' .. user, 'queue:' .. room, 'PX', ttl)
redis.call('SET', prefix .. 'away:' .. user, token, 'PX', ttl)
redis.call('DEL', prefix .. 'inbox:' .. user)
return 1
"""
)

UNREQUEUE = (
    PLACE
    + """
local prefix, user, room, table = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local token, seat_ms = ARGV[5], ARGV[6]
if redis.call('GET', prefix .. 'away:' .. user) ~= token then return 0 end
local kind, where = place_of(prefix, user)
if kind ~= 'waiting' or where ~= room then return 0 end
redis.call('DEL', prefix .. 'away:' .. user)
unqueue(prefix .. 'q:' .. room, user)
redis.call('SET', prefix .. 'seat:' .. user, table, 'PX', seat_ms)
return 1
"""
)

FREE = """
local n = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then n = n + redis.call('DEL', key) end
end
return n
"""
