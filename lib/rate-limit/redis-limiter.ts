// Token buckets in Redis: one Lua script per request, atomic on the server, timed by Redis's own clock.
import Redis from "ioredis";
import { describeBucket, refillPerMs, type BucketConfig, type RateLimiter, type TakeResult } from "./token-bucket";

const TAKE_SCRIPT = `
local max = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or max
local ts = tonumber(state[2]) or now
tokens = math.min(max, tokens + math.max(0, now - ts) * per_ms)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(max / per_ms) + 1000)
return {allowed, tostring(tokens)}
`;

type RedisWithTake = Redis & { takeToken(key: string, max: number, perMs: number): Promise<[number, string]> };

export function redisLimiter(url: string, config: BucketConfig): RateLimiter {
  // Give up quickly when Redis is away (short time-outs, one retry): the caller falls back to Postgres.
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
    connectTimeout: 1000,
    commandTimeout: 500,
  }) as RedisWithTake;
  redis.on("error", () => {}); // reported by the fallback, not once per reconnect attempt
  redis.defineCommand("takeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
  const perMs = refillPerMs(config);
  return {
    async take(key: string): Promise<TakeResult> {
      const [allowed, tokens] = await redis.takeToken(`ratelimit:${key}`, config.max, perMs);
      return describeBucket(config, allowed === 1, Number(tokens));
    },
  };
}
