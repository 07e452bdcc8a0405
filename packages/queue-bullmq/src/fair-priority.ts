/**
 * Fair dispatch on BullMQ (see docs/adr/0005-fair-dispatch.md): start-time fair queueing mapped
 * onto BullMQ priorities. Each group (organization) has a virtual finish tag; a new task gets
 * `priority = max(tag[group], V − 1) + 1` where V, the virtual time, is the priority of the task
 * at the head of the prioritized set (never moving backwards): a group that becomes active ties
 * with the head and is served right after it. BullMQ serves the lowest priority
 * first and ties in insertion order, so groups with waiting work are served round-robin, one task
 * each per turn, and a group that arrives late joins the rotation at once instead of queueing
 * behind a backlog. The tags are reset whenever nothing waits, which keeps priorities small.
 *
 * KEYS: 1 prioritized zset, 2 wait list, 3 delayed zset, 4 fair-state hash, 5 job hash (or the
 *       state hash again when the job has no custom id), 6 reservation counter (priorities handed
 *       out whose BullMQ add has not landed yet; the reset must wait for them, else concurrent
 *       adds would all restart at 1; it expires a minute after the last add, should a producer
 *       die between the two steps)
 * ARGV: 1 group, 2 highest priority BullMQ accepts, 3 '1' when KEYS[5] is a custom job id
 * Returns the priority, or 0 when a job with that id already exists (idempotent add).
 */
export const FAIR_PRIORITY_SCRIPT = `
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[5]) == 1 then return 0 end
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local v = tonumber(redis.call('HGET', KEYS[4], '__v') or '0')
if #head == 0 then
  local pending = tonumber(redis.call('GET', KEYS[6]) or '0')
  if pending <= 0 and redis.call('LLEN', KEYS[2]) == 0 and redis.call('ZCARD', KEYS[3]) == 0 then
    redis.call('DEL', KEYS[4])
    v = 0
  end
else
  local headPriority = math.floor(tonumber(head[2]) / 4294967296)
  if headPriority > v then v = headPriority end
end
local tag = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0')
if tag < v - 1 then tag = v - 1 end
tag = tag + 1
local limit = tonumber(ARGV[2])
if tag > limit then tag = limit end
redis.call('HSET', KEYS[4], ARGV[1], tag, '__v', v)
redis.call('INCR', KEYS[6])
redis.call('PEXPIRE', KEYS[6], 60000)
return tag
`;

/** Called once the BullMQ add of a reserved priority landed (or failed). KEYS: 1 reservation counter. */
export const FAIR_RELEASE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1
`;

/**
 * Distinct groups among the first ARGV[1] waiting tasks (prioritized set, then wait list); the
 * group is the job's name. KEYS: 1 prioritized zset, 2 wait list. ARGV: 2 the job key prefix.
 */
export const WAITING_GROUPS_SCRIPT = `
local limit = tonumber(ARGV[1])
local seen = {}
local count = 0
local function visit(ids)
  for _, id in ipairs(ids) do
    local name = redis.call('HGET', ARGV[2] .. id, 'name')
    if name and not seen[name] then
      seen[name] = true
      count = count + 1
    end
  end
end
visit(redis.call('ZRANGE', KEYS[1], 0, limit - 1))
visit(redis.call('LRANGE', KEYS[2], 0, limit - 1))
return count
`;

/**
 * Waiting tasks dispatched before ARGV[1]: BullMQ takes the wait list (tasks without a priority)
 * first, then the prioritized set in score order (priority, then insertion), so the count is the
 * wait list's length plus the task's rank, or its place in the wait list. -1 when not waiting.
 * KEYS: 1 prioritized zset, 2 wait list.
 */
export const POSITION_SCRIPT = `
local rank = redis.call('ZRANK', KEYS[1], ARGV[1])
if rank then return redis.call('LLEN', KEYS[2]) + rank end
local place = redis.call('LPOS', KEYS[2], ARGV[1])
if not place then return -1 end
return redis.call('LLEN', KEYS[2]) - 1 - place
`;
