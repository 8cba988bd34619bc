import type { RedisClient } from './connection.js';

export interface RedisHealthOptions {
  /**
   * Redis cannot be used: called when an outage starts and then at most once every `repeatMs` while it lasts, however
   * many reconnection attempts and heartbeats fail meanwhile.
   */
  onDown: (err: Error) => void;
  /** Redis answers again after an outage. */
  onUp: () => void;
  repeatMs?: number;
  /** How often a PING checks that Redis answers. */
  heartbeatMs?: number;
  /** Tests move time without waiting. */
  now?: () => number;
}

/**
 * Follows a connection's outages so that callers can report them at a bounded rate instead of once per failed
 * command or reconnection attempt. A refused or dropped connection shows in ioredis's events; a hung server keeps the
 * connection open and emits nothing, so a periodic PING (failing after the command timeout) catches that case, and
 * its success ends an outage that no reconnection would announce. Returns a function that stops following.
 */
export const watchRedis = (
  redis: RedisClient,
  { onDown, onUp, repeatMs = 60_000, heartbeatMs = 1000, now = Date.now }: RedisHealthOptions,
): (() => void) => {
  let down = false;
  let stopped = false;
  let lastReport = 0;
  const failed = (err: Error) => {
    if (stopped) return;
    const at = now();
    if (!down || at - lastReport >= repeatMs) {
      lastReport = at;
      onDown(err);
    }
    down = true;
  };
  const answered = () => {
    if (stopped || !down) return;
    down = false;
    onUp();
  };
  redis.on('error', failed);
  redis.on('ready', answered);
  const heartbeat = setInterval(() => void redis.ping().then(answered, failed), heartbeatMs);
  heartbeat.unref();
  return () => {
    stopped = true;
    clearInterval(heartbeat);
    redis.off('error', failed);
    redis.off('ready', answered);
  };
};
