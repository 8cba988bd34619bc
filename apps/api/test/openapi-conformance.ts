import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * docs/reference/contract.md §7: every response the test suite receives is checked against the committed document: its status is
 * declared for the operation, its headers are declared (protocol headers aside), and its body is valid. A response
 * the document does not describe fails the test that received it, so the document cannot drift from the code.
 */

type Json = Record<string, any>;

const documentUrl = (name: string) => new URL(`../../../openapi/${name}.json`, import.meta.url);

/** Headers of HTTP itself, of the security-header and CORS layers, not part of any operation's contract. */
const PROTOCOL_HEADERS = new Set([
  'content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding',
  'content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'cross-origin-embedder-policy',
  'origin-agent-cluster', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control',
  'x-download-options', 'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection',
  'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers',
  'access-control-expose-headers', 'access-control-max-age', 'access-control-allow-credentials', 'vary',
]);

export interface ReceivedResponse {
  method: string;
  url: string;
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
}

/** The committed document of one API version (`openapi/<version>.json`), or the latest's (`openapi/openapi.json`). */
export const loadDocument = (version = 'openapi'): Json => JSON.parse(readFileSync(documentUrl(version), 'utf8'));

/**
 * docs/reference/contract.md §8: each response is checked against the document of the version it was served at, which its
 * `Garage-Version` header names; responses outside /api/public carry none and are checked against the latest.
 */
export const makeVersionedConformanceCheck = () => {
  const checks = new Map<string, (response: ReceivedResponse) => void>();
  return (response: ReceivedResponse): void => {
    const version = response.headers['garage-version'];
    const name = typeof version === 'string' ? version : 'openapi';
    let check = checks.get(name);
    if (!check) {
      check = makeConformanceCheck(loadDocument(name));
      checks.set(name, check);
    }
    check(response);
  };
};

export const makeConformanceCheck = (document: Json = loadDocument()) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };
  // A literal segment beats a parameter: `/fleet/lead` is not `/fleet/{vehicleId}`.
  const routes: Route[] = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

  /** Throws with every mismatch between `response` and the document; does nothing for a path it does not describe. */
  return (response: ReceivedResponse): void => {
    const path = response.url.split('?')[0]!;
    const route = routes.find((r) => r.pattern.test(path));
    if (!route) return;
    const method = response.method.toLowerCase();
    const operation = document.paths[route.template][method] as Json | undefined;
    if (!operation) return;
    const where = `${response.method} ${route.template} → ${response.statusCode}`;
    const problems: string[] = [];
    const status = String(response.statusCode);
    const declared = operation.responses[status] as Json | undefined;
    if (!declared) {
      throw new Error(`${where}: status ${status} is not declared (declared: ${Object.keys(operation.responses).join(', ')})`);
    }
    const headers = new Set(Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase()));
    for (const name of Object.keys(response.headers)) {
      if (!PROTOCOL_HEADERS.has(name.toLowerCase()) && !headers.has(name.toLowerCase())) problems.push(`header ${name} is not declared`);
    }
    const content = declared.content?.['application/json'];
    if (content && response.body.length > 0 && String(response.headers['content-type'] ?? '').includes('json')) {
      const pointer = `/paths/${escape(route.template)}/${method}/responses/${status}/content/application~1json/schema`;
      const validate = validatorAt(pointer);
      if (!validate(JSON.parse(response.body))) {
        problems.push(...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message}`));
      }
    } else if (!content && response.body.length > 0 && response.statusCode !== 304) {
      problems.push('a body where the document declares none');
    }
    if (problems.length > 0) throw new Error(`${where} does not match the document of its version:\n  ${problems.join('\n  ')}`);
  };
};
