import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { eventually } from './processes.js';

/**
 * What the observability tests run beside the API: the built webhook worker as operators start it, and a receiver of
 * OTLP/HTTP exports (JSON, `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) standing in for a collector.
 */

export const WORKER_MAIN = fileURLToPath(new URL('../../../../apps/worker/dist/main.js', import.meta.url));
if (!existsSync(WORKER_MAIN)) throw new Error(`${WORKER_MAIN} is missing: build first (pnpm build)`);

export interface WorkerProcess {
  /** `host:port` of its health and metrics listeners. */
  health: string;
  metrics: string;
  /** Every log line so far, parsed. */
  lines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Starts `node apps/worker/dist/main.js` and resolves once its start line names its listeners. */
export const startWorker = async (t: Test, env: Record<string, string>): Promise<WorkerProcess> => {
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  t.teardown(stop);
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
    }
  });
  const started = () => lines.find((line) => line.msg === 'webhook worker started');
  if (!(await eventually(async () => started() !== undefined || child.exitCode !== null, { attempts: 300, intervalMs: 100 })) || !started()) {
    throw new Error(`the worker did not start within 30 s: ${stderr}`);
  }
  const { health, metrics } = started() as { health: string; metrics: string };
  return { health, metrics, lines, stop };
};

/** One span as OTLP/JSON carries it, with its attributes flattened and its process's `service.name`. */
export interface ExportedSpan {
  service: string;
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  links?: { traceId: string; spanId: string }[];
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { scope?: { name?: string }; spans?: (Omit<ExportedSpan, 'service' | 'scope' | 'attributes'> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
}

const valueOf = (value: OtlpValue): unknown => value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
const flat = (attributes: OtlpAttribute[] = []) => Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)]));

export interface OtlpReceiver {
  /** What processes take as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  spans: ExportedSpan[];
  /** Every request body received, as sent: what a collector would store. */
  bodies: string[];
}

/** An OTLP/HTTP receiver on loopback: `POST /v1/traces` with JSON bodies, answered 200 as a collector does. */
export const startOtlpReceiver = async (t: Test): Promise<OtlpReceiver> => {
  const spans: ExportedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      bodies.push(body);
      const payload = JSON.parse(body) as OtlpExport;
      for (const resource of payload.resourceSpans ?? []) {
        const service = String(flat(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({ ...span, service, scope: scope.scope?.name ?? '', attributes: flat(span.attributes) });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, bodies };
};

/** The environment that turns tracing on, exporting to `receiver` within a tenth of a second of a span's end. */
export const tracingEnv = (receiver: OtlpReceiver): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '100',
});
