import closeWithGrace from 'close-with-grace';
import { buildApp, type App } from './app.js';
import { startMetricsServer, type MetricsServer } from '@garage/observability';
import { stopTracing } from '@garage/observability/tracing';
import { ConfigError, loadApiConfig as loadConfig, type Config } from '@garage/config';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const configOrExit = (): Config => {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
};

const config = configOrExit();

let app: App;
try {
  app = await buildApp(config);
  await app.ready();
} catch (err) {
  // Typically the database: unreachable, wrong credentials, or a failed migration.
  fail(`Cannot start: ${err instanceof Error ? err.message : String(err)}`);
}

/** Set once listening; the close handler may run before (a signal during start-up). */
const metrics: { server?: MetricsServer } = {};

// SIGTERM/SIGINT: readiness turns 503 at once, requests keep being served for SHUTDOWN_DELAY_MS (while the load
// balancer notices), then the listener closes, in-flight requests finish, the database closes, exit 0.
closeWithGrace({ delay: config.shutdownDelayMs + 10_000, logger: app.log }, async ({ signal, err }) => {
  app.readiness.drain();
  if (err) app.log.error({ err }, 'closing after an unexpected error');
  else if (signal) app.log.info({ signal, shutdownDelayMs: config.shutdownDelayMs }, 'draining: not ready, still serving');
  if (signal && config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
  app.log.info('closing');
  await app.close();
  await metrics.server?.close();
  // The spans of the last requests, still buffered, are sent before the process ends.
  await stopTracing();
  // Operators look for this line: every request was answered and every pool and connection released.
  app.log.info('closed');
});

await app.listen({ port: config.port, host: config.host });
metrics.server = await startMetricsServer({ registry: app.metrics.registry, host: config.metricsHost, port: config.metricsPort });
app.log.info(`Metrics listening at http://${metrics.server.address}/metrics`);

if (app.demo) {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // A log line outlives the terminal (collected, shipped, kept): it names where the key is, never the key.
  app.log.info(
    `Embedded mode (no DATABASE_URL): demo credentials in ${app.demo.credentialsFile}. Try: curl -H "x-api-key: $(jq -r '.integrations[0].apiKey' ${app.demo.credentialsFile})" http://localhost:${port}/api/public/products`,
  );
  // On a terminal, a person is reading: the key is shown, and stands out from the log lines around it.
  if (process.stdout.isTTY) {
    const rule = '='.repeat(78);
    process.stdout.write(
      `\n${rule}\n  Demo API key: ${app.demo.apiKey}\n  Demo test key: ${app.demo.testApiKey} (its sandbox)\n  Try: curl -H 'x-api-key: ${app.demo.apiKey}' http://localhost:${port}/api/public/products\n  All demo credentials: ${app.demo.credentialsFile}\n${rule}\n\n`,
    );
  }
}
