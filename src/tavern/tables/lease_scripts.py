"""The Lua scripts of the leases and shared counters (tables/cluster.py).

Each runs atomically in Redis: no two workers interleave inside one.
"""

from __future__ import annotations

ACQUIRE = """
local cur = redis.call('GET', KEYS[1])
if cur then
  local w, f = string.match(cur, '^(.*)|(%d+)$')
  if w == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(f)
  end
  return -1
end
local f = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. f, 'PX', ARGV[2])
return f
"""
#: Renew every lease a worker holds in one call: KEYS are pairs (lease,
#: fence counter), ARGV[1] the time to live, then one "worker|fence" per
#: pair. A lease that ran out while nobody took it (its fence counter still
#: at the holder's fence: no other worker acquired it, so none can have
#: claimed the table) is taken again — a stalled event loop is not a dead
#: worker. Returns the 1-based numbers of the pairs lost.
RENEW = """
local lost = {}
for i = 1, #KEYS, 2 do
  local mine = ARGV[(i + 1) / 2 + 1]
  local cur = redis.call('GET', KEYS[i])
  if cur == mine then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
  elseif not cur and redis.call('GET', KEYS[i + 1]) == string.match(mine, '|(%d+)$') then
    redis.call('SET', KEYS[i], mine, 'PX', ARGV[1])
  else
    table.insert(lost, (i + 1) / 2)
  end
end
return lost
"""
#: Let a lease go. The fence counter moves on too, so that a renewal already
#: in flight (the keeper thread) cannot take a released lease back as if it
#: had only run out during a stall (see RENEW).
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('INCR', KEYS[2])
  return redis.call('DEL', KEYS[1])
end
return 0
"""
#: Raise a fence counter to at least ARGV[1] (after a Redis restart the
#: counters start again from 0 while the database remembers the old fences).
RAISE_FENCE = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""

#: Counters shared by the workers: a hash per counter, a field per worker, so
#: that a dead worker's share (its heartbeat key gone) stops counting.
TAKE_COUNTS = """
for i, k in ipairs(KEYS) do
  local total = 0
  local all = redis.call('HGETALL', k)
  for j = 1, #all, 2 do
    if all[j] == ARGV[1] or redis.call('EXISTS', 'tavern:worker:' .. all[j]) == 1 then
      total = total + tonumber(all[j + 1])
    else
      redis.call('HDEL', k, all[j])
    end
  end
  if total >= tonumber(ARGV[i + 1]) then return 0 end
end
for i, k in ipairs(KEYS) do redis.call('HINCRBY', k, ARGV[1], 1) end
return 1
"""
