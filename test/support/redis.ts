/**
 * The Redis the tests use (TEST_REDIS_URL, default the local one). Tests that need it run when it answers, and
 * always under CI=true, where an unreachable Redis must fail them rather than skip them (as for PostgreSQL).
 */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** True when the Redis tests should run. */
export const runRedisTests = (await redisReachable()) || process.env.CI === 'true';
if (!runRedisTests)
  console.warn(`Redis at ${REDIS_URL} is not reachable: the Redis tests are skipped (they fail under CI=true).`);
