import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * SIGTERM must finish in-flight requests and then exit promptly (docs/reference/contract.md §6). The server stops accepting on
 * close, but a keep-alive connection whose request was in flight becomes idle only afterwards and would hold the
 * close for the whole keep-alive timeout. So responses sent while closing say `Connection: close`, and connections
 * that turn idle during the drain are closed as they do.
 */
export default fp(
  async (app: FastifyInstance) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
      if (!app.server.listening) return;
      const timer = setInterval(() => app.server.closeIdleConnections(), 100);
      timer.unref();
      app.server.once('close', () => clearInterval(timer));
    });
    // A callback hook: an async one costs every response a promise.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });
  },
  { name: 'graceful-close' },
);
