import { startTracing } from '@garage/observability/tracing';

// Tracing first, when configured (docs/operators/observability.md): its instrumentations patch fastify, pg and ioredis
// as they load, so the server and everything it imports are loaded after it.
await startTracing({ serviceName: 'garage-api' });
await import('./server.js');
