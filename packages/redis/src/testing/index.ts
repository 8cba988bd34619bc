import { Redis } from 'ioredis';

export { freePort, startRedisCluster, startRedisServer, type RedisServer } from './redis-server.js';

/** The Redis tests use: `TEST_REDIS_URL`, or a local Redis on its default port. */
export const testRedisUrl = (): string => process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * The test Redis's URL once it answers a PING; otherwise fails (tests that need Redis never skip) naming the service
 * and the variable that points at it.
 */
export const requireTestRedis = async (): Promise<string> => {
  const url = testRedisUrl();
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The socket's own error says more than the rejected connect: it goes into the message.
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return url;
  } catch (error) {
    throw new Error(
      `Redis does not answer at ${url} (${(socketError ?? (error as Error)).message}): these tests need a real Redis; start one there ` +
        'or set TEST_REDIS_URL to one that runs',
    );
  } finally {
    redis.disconnect();
  }
};
