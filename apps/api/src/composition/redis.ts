import { connectRedis, pingRedis, waitForRedis, watchRedis, type RedisClient, type RedisOptions } from '@garage/redis';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '@garage/config';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared state between instances (rate-limit counters); null without REDIS_URL. */
    redis: RedisClient | null;
  }
}

/**
 * Redis holds the rate-limit counters that instances share. Start-up waits briefly for the connection but never fails
 * on it: while Redis is unreachable the limits are simply not enforced (docs/reference/contract.md §4.5), readiness reports it, and a
 * warning is logged when the outage starts (refused, dropped or hung) and then once a minute, not once per request.
 */
const openRedis = async (app: FastifyInstance, target: Pick<RedisOptions, 'url' | 'clusterNodes'>): Promise<RedisClient> => {
  const redis = connectRedis({ ...target, onError: () => app.metrics.countRedisError() });
  const stopWatching = watchRedis(redis, {
    onDown: (err) => app.log.warn({ err }, 'Redis unreachable: per-IP rate limits are not enforced until it is back'),
    onUp: () => app.log.info('Redis reachable again: per-IP rate limits are enforced'),
  });
  app.addHook('onClose', async () => {
    stopWatching();
    redis.disconnect();
  });
  app.readiness.add('redis', () => pingRedis(redis));
  await waitForRedis(redis);
  return redis;
};

export default fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    const target = config.redisClusterNodes ? { clusterNodes: config.redisClusterNodes } : config.redisUrl ? { url: config.redisUrl } : null;
    const redis: RedisClient | null = target ? await openRedis(app, target) : null;
    app.decorate<RedisClient | null>('redis', redis);
  },
  { name: 'redis', dependencies: ['readiness', 'metrics'] },
);
