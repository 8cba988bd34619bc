import { startTracing } from '@garage/observability/tracing';

// Tracing first, when configured (docs/operators/observability.md): its instrumentations patch pg as it loads, so the
// worker and everything it imports are loaded after it.
await startTracing({ serviceName: 'garage-worker' });
await import('./worker.js');
