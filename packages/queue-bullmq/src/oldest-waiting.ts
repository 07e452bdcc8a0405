/**
 * The first-due time (epoch ms) of the oldest waiting task, or -1 when none waits. A task was
 * first due at its BullMQ `timestamp` (when it was added) plus the delay it was added with, read
 * from its stored options: BullMQ zeroes the job's own `delay` field when it promotes a delayed
 * job, and keeps `timestamp` across retries.
 *
 * Only the first ARGV[1] tasks of the prioritized set (in dispatch order) and the oldest ARGV[1]
 * of the wait list are read, which bounds the cost on a deep backlog without missing the answer:
 * fair dispatch (fair-priority.ts) gives each group's tasks consecutive priorities from the head's
 * priority V on, so every group's oldest task has priority V or V + 1 (a retried task keeps its
 * older, lower one and sorts first), and the first ARGV[1] entries hold the oldest task of every
 * group as long as fewer than ARGV[1] / 2 groups are waiting. Past that the figure is a lower
 * bound. The wait list (tasks without a priority) is first in, first out: its oldest are at its
 * tail, where workers take from.
 *
 * KEYS: 1 prioritized zset, 2 wait list. ARGV: 1 how many tasks of each to read, 2 the job key prefix.
 */
export const OLDEST_WAITING_SCRIPT = `
local limit = tonumber(ARGV[1])
local oldest = -1
local function visit(ids)
  for _, id in ipairs(ids) do
    local fields = redis.call('HMGET', ARGV[2] .. id, 'timestamp', 'opts')
    local added = tonumber(fields[1])
    if added then
      local delay = 0
      if fields[2] then
        local ok, opts = pcall(cjson.decode, fields[2])
        if ok and type(opts) == 'table' and tonumber(opts.delay) then delay = tonumber(opts.delay) end
      end
      local due = added + delay
      if oldest < 0 or due < oldest then oldest = due end
    end
  end
end
visit(redis.call('ZRANGE', KEYS[1], 0, limit - 1))
visit(redis.call('LRANGE', KEYS[2], -limit, -1))
return oldest
`;

/** Tasks of each waiting structure read by OLDEST_WAITING_SCRIPT: exact for up to 500 waiting groups. */
export const OLDEST_WAITING_SCAN = 1_000;
