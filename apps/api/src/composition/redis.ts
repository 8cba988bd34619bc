import { connectRedis, pingRedis, waitForRedis, watchRedis, type Redis } from '@garage/redis';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '@garage/config';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared state between instances (rate-limit counters); null without REDIS_URL. */
    redis: Redis | null;
  }
}

/**
 * Redis holds the rate-limit counters that instances share. Start-up waits briefly for the connection but never fails
 * on it: while Redis is unreachable the limits are simply not enforced (CONTRACT.md §4.5), readiness answers 503, and a
 * warning is logged when the outage starts (refused, dropped or hung) and then once a minute, not once per request.
 */
const openRedis = async (app: FastifyInstance, url: string): Promise<Redis> => {
  const redis = connectRedis({ url });
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
    app.decorate('redis', config.redisUrl ? await openRedis(app, config.redisUrl) : null);
  },
  { name: 'redis', dependencies: ['readiness'] },
);
