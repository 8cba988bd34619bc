import { isPromise, type Awaitable } from '@garage/domain';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';

/** Runs `step`, then `done`: at once when the step needed nothing awaited, else when its promise settles. */
export const runThenDone = (step: () => Awaitable<unknown>, done: (err?: Error) => void): void => {
  let result: Awaitable<unknown>;
  try {
    result = step();
  } catch (err) {
    return done(err as Error);
  }
  if (isPromise(result)) result.then(() => done(), done);
  else done();
};

/**
 * An onRequest hook of a step that often finishes at once (a cached key): Fastify gets a callback hook, so that case
 * costs no promise and no microtask, where an async hook would cost both on every request (issue 18).
 */
export const awaitableHook =
  (step: (request: FastifyRequest, reply: FastifyReply) => Awaitable<void>): onRequestHookHandler =>
  (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) =>
    runThenDone(() => step(request, reply), done);
