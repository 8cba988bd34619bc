import { Cluster, Redis } from 'ioredis';

/** One Redis, or a Redis Cluster: both answer the commands the API uses, and both emit the same events. */
export type RedisClient = Redis | Cluster;

export interface RedisOptions {
  /** One Redis. */
  url?: string;
  /** Or the seed nodes of a Redis Cluster. */
  clusterNodes?: { host: string; port: number }[];
  /**
   * Called with every connection error (each failed reconnection attempt included): ioredis reconnects by itself, so
   * these are for counting, not crashes. `watchRedis` reports outages at a bounded rate for the logs.
   */
  onError: (err: Error) => void;
}

/**
 * A connection that fails fast: a dead Redis must never make a request wait (docs/reference/contract.md §4.5: at most one second).
 * No offline queue (commands fail immediately while disconnected), short connect and command timeouts, one attempt
 * per command, and reconnection in the background with a capped backoff so enforcement resumes by itself.
 */
export const connectRedis = ({ url, clusterNodes, onError }: RedisOptions): RedisClient => {
  const failFast = {
    enableOfflineQueue: false,
    connectTimeout: 500,
    commandTimeout: 300,
    maxRetriesPerRequest: 0,
    lazyConnect: false,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  };
  // A cluster client keeps one such connection per node and follows the slot map when a master fails over or goes.
  const redis: RedisClient = clusterNodes
    ? new Cluster(clusterNodes, {
        enableOfflineQueue: false,
        clusterRetryStrategy: failFast.retryStrategy,
        slotsRefreshTimeout: 500,
        redisOptions: failFast,
      })
    : new Redis(url ?? 'redis://127.0.0.1:6379', failFast);
  redis.on('error', onError);
  return redis;
};

/** Resolves when Redis answers within the command timeout, rejects otherwise. */
export const pingRedis = async (redis: RedisClient): Promise<void> => {
  await redis.ping();
};

/**
 * Waits until the connection is ready, up to `timeoutMs`; returns whether it is. Start-up uses it so that the first
 * requests do not fail merely because the connection was still being established, without blocking start when Redis
 * is down (the service then runs without shared enforcement until Redis is back).
 */
export const waitForRedis = (redis: RedisClient, timeoutMs = 1000): Promise<boolean> => {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
};
