import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { IService } from 'kubernetes-models/v1/Service';
import t, { type Test } from 'tap';
import { loadConfig } from '@garage/api';
import { render, validateObject, type KubernetesObject } from './support/kubernetes-render.js';

/**
 * deploy/kubernetes (docs/reference/contract.md §6): base and the production overlay render, every object is valid for the Kubernetes
 * API, and the properties operators rely on hold: probes on the health endpoints, drain timing, non-root read-only
 * pods, secrets only by reference, metrics never behind the public Service, and a Postgres connection budget.
 */

const dockerfile = await readFile(fileURLToPath(new URL('../../../docker/Dockerfile', import.meta.url)), 'utf8');
/** The runtime stage's numeric user, which the pods must run as too. */
const imageUser = /^USER (\d+)(?::(\d+))?\s*$/m.exec(dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')));

/** Settings of the Secret the operator creates; never a literal value in a manifest or the ConfigMap. */
const SECRET_VARIABLES = ['DATABASE_URL', 'ENCRYPTION_KEY', 'ENCRYPTION_KEY_PREVIOUS', 'DATABASE_READ_URL', 'REDIS_URL', 'REDIS_CLUSTER_NODES'];
const REQUIRED_SECRETS = ['DATABASE_URL', 'ENCRYPTION_KEY'];
/** close-with-grace's limit for in-flight requests after the listener closes (apps/api/src/main.ts). */
const IN_FLIGHT_DRAIN_SECONDS = 10;
/** The CLI's pool (packages/postgres connectPostgres default) and Postgres' default max_connections less its reserve. */
const CLI_POOL = 10;
const POSTGRES_CONNECTIONS = 100 - 3;

const byKind = <T>(objects: KubernetesObject[], kind: string, name?: string): T[] =>
  objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name)) as unknown as T[];
const one = <T>(objects: KubernetesObject[], kind: string, name: string): T => {
  const [found, ...others] = byKind<T>(objects, kind, name);
  if (!found || others.length > 0) throw new Error(`expected exactly one ${kind} ${name}`);
  return found;
};
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const podSpec = (template: IPodTemplateSpec | undefined) => {
  if (!template?.spec) throw new Error('a pod template without spec');
  return template.spec;
};
const envValue = (container: IContainer, name: string) => container.env?.find((e) => e.name === name)?.value;
const mebibytes = (quantity: string | number | undefined) => {
  const match = /^(\d+)(Mi|Gi)$/.exec(String(quantity));
  if (!match) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
};

/** What the pod template of every workload must satisfy: the "restricted" Pod Security Standard and a read-only root. */
const checkPodSecurity = (t: Test, name: string, template: IPodTemplateSpec | undefined) => {
  const spec = podSpec(template);
  t.equal(spec.securityContext?.runAsNonRoot, true, `${name}: runAsNonRoot`);
  t.equal(spec.securityContext?.runAsUser, Number(imageUser?.[1]), `${name}: runs as the image's user`);
  t.not(spec.securityContext?.runAsUser, 0, `${name}: not root`);
  t.equal(spec.securityContext?.seccompProfile?.type, 'RuntimeDefault', `${name}: the runtime's seccomp profile`);
  t.equal(spec.automountServiceAccountToken, false, `${name}: no Kubernetes API token`);
  for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
    const security = container.securityContext;
    t.equal(security?.readOnlyRootFilesystem, true, `${name}/${container.name}: read-only root filesystem`);
    t.equal(security?.allowPrivilegeEscalation, false, `${name}/${container.name}: no privilege escalation`);
    t.same(security?.capabilities?.drop, ['ALL'], `${name}/${container.name}: every capability dropped`);
    t.notOk(security?.capabilities?.add, `${name}/${container.name}: none added`);
    t.notOk(security?.privileged, `${name}/${container.name}: not privileged`);
    const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
    t.ok(tmp && spec.volumes?.find((v) => v.name === tmp.name)?.emptyDir, `${name}/${container.name}: /tmp is a writable emptyDir`);
    for (const [kind, values] of Object.entries({ requests: container.resources?.requests, limits: container.resources?.limits })) {
      t.ok(values?.cpu && values?.memory, `${name}/${container.name}: cpu and memory ${kind}`);
    }
    const heap = /--max-old-space-size=(\d+)/.exec(envValue(container, 'NODE_OPTIONS') ?? '');
    if (heap) t.ok(Number(heap[1]) < mebibytes(container.resources?.limits?.memory), `${name}/${container.name}: V8 heap below the memory limit`);
  }
  for (const volume of spec.volumes ?? []) t.notOk(volume.hostPath, `${name}: no hostPath volume`);
};

/** Secrets by reference only: required ones to garage-secrets, optional ones marked optional. */
/** `keys`: a variable read from another key of the Secret (the migration Job's DATABASE_URL, its schema owner's). */
const checkSecretReferences = (t: Test, name: string, container: IContainer, configMaps: IConfigMap[], keys: Record<string, string> = {}) => {
  for (const variable of SECRET_VARIABLES) {
    const entry = container.env?.find((e) => e.name === variable);
    if (!entry) continue;
    t.equal(entry.value, undefined, `${name}: ${variable} is not written in the manifest`);
    t.equal(entry.valueFrom?.secretKeyRef?.name, 'garage-secrets', `${name}: ${variable} from the Secret garage-secrets`);
    t.equal(entry.valueFrom?.secretKeyRef?.key, keys[variable] ?? variable, `${name}: ${variable} under ${keys[variable] ?? 'its own name'}`);
    t.equal(Boolean(entry.valueFrom?.secretKeyRef?.optional), !REQUIRED_SECRETS.includes(variable), `${name}: ${variable} optional or not`);
  }
  for (const variable of REQUIRED_SECRETS) t.ok(container.env?.some((e) => e.name === variable), `${name}: ${variable} is set`);
  for (const source of container.envFrom ?? []) {
    t.notOk(source.secretRef, `${name}: no whole-Secret import, every secret is named`);
    t.ok(configMaps.some((c) => c.metadata?.name === source.configMapRef?.name), `${name}: ${source.configMapRef?.name} is rendered`);
  }
};

/** Probes on the contract's health endpoints, through the port the process listens on. */
const checkProbes = (t: Test, name: string, container: IContainer) => {
  const http = container.ports?.find((p) => p.name === 'http');
  t.equal(String(http?.containerPort), envValue(container, 'PORT'), `${name}: the http port is PORT`);
  const probes = { startupProbe: '/health/live', livenessProbe: '/health/live', readinessProbe: '/health/ready' } as const;
  for (const [probe, path] of Object.entries(probes)) {
    const get = container[probe as keyof typeof probes]?.httpGet;
    t.equal(get?.path, path, `${name}: ${probe} on ${path}`);
    t.ok(get?.port === 'http' || get?.port === http?.containerPort, `${name}: ${probe} on the http port`);
  }
  const metrics = container.ports?.find((p) => p.name === 'metrics');
  t.equal(metrics?.containerPort, 9464, `${name}: metrics on the contract's METRICS_PORT default`);
  t.equal(envValue(container, 'METRICS_PORT'), String(metrics?.containerPort), `${name}: METRICS_PORT matches the port`);
};

/** The Postgres pool size the pods of `deployment` get. */
const poolMax = (deployment: IDeployment, configMaps: IConfigMap[]) => {
  const container = podSpec(deployment.spec?.template).containers[0];
  const literal = container && envValue(container, 'DATABASE_POOL_MAX');
  const fromMap = configMaps.find((c) => container?.envFrom?.some((s) => s.configMapRef?.name === c.metadata?.name))?.data?.DATABASE_POOL_MAX;
  return Number(literal ?? fromMap ?? 10);
};

const checkRender = (t: Test, objects: KubernetesObject[]) => {
  t.test('every object is valid for the Kubernetes API', async (t) => {
    for (const object of objects) t.doesNotThrow(() => validateObject(object), `${object.kind} ${object.metadata.name}`);
    t.same(byKind(objects, 'Secret'), [], 'no Secret: the operator creates garage-secrets');
  });

  const api = one<IDeployment>(objects, 'Deployment', 'garage-api');
  const worker = one<IDeployment>(objects, 'Deployment', 'garage-worker');
  const migrate = one<IJob>(objects, 'Job', 'garage-migrate');
  const service = one<IService>(objects, 'Service', 'garage-api');
  const hpa = one<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', 'garage-api');
  const pdb = one<IPodDisruptionBudget>(objects, 'PodDisruptionBudget', 'garage-api');
  const configMaps = byKind<IConfigMap>(objects, 'ConfigMap');
  const apiLabels = api.spec?.template.metadata?.labels;
  const apiContainer = podSpec(api.spec?.template).containers.find((c) => c.name === 'api') as IContainer;
  const workerContainer = podSpec(worker.spec?.template).containers.find((c) => c.name === 'worker') as IContainer;
  const migrateContainer = podSpec(migrate.spec?.template).containers.find((c) => c.name === 'migrate') as IContainer;

  t.test('api: the image CMD, probes, drain timing, settings the API accepts', async (t) => {
    t.same(apiContainer.command, ['node', /^CMD \["node", "([^"]+)"\]/m.exec(dockerfile)?.[1]], 'runs the image CMD');
    checkProbes(t, 'api', apiContainer);
    const preStop = apiContainer.lifecycle?.preStop?.sleep?.seconds ?? 0;
    t.ok(preStop > 0, 'preStop: the endpoint is removed before SIGTERM');
    t.equal(envValue(apiContainer, 'SHUTDOWN_DELAY_MS'), '5000', 'SHUTDOWN_DELAY_MS as docs/reference/contract.md §6 says');
    const drain = preStop + Number(envValue(apiContainer, 'SHUTDOWN_DELAY_MS')) / 1000 + IN_FLIGHT_DRAIN_SECONDS;
    t.ok((podSpec(api.spec?.template).terminationGracePeriodSeconds ?? 30) > drain, `the grace period outlasts the drain (${drain} s)`);
    t.equal(api.spec?.strategy?.rollingUpdate?.maxUnavailable, 0, 'a rollout never lowers capacity');
    checkPodSecurity(t, 'api', api.spec?.template);
    checkSecretReferences(t, 'api', apiContainer, configMaps);
    for (const constraint of podSpec(api.spec?.template).topologySpreadConstraints ?? []) {
      t.ok(selects(constraint.labelSelector?.matchLabels, apiLabels), `spread over ${constraint.topologyKey} counts api pods`);
    }
    t.ok(podSpec(api.spec?.template).topologySpreadConstraints?.some((c) => c.topologyKey === 'topology.kubernetes.io/zone'), 'spread over zones');

    // The environment a pod gets, secrets replaced by well-formed stand-ins, through the API's own parser.
    const configMap = configMaps.find((c) => apiContainer.envFrom?.some((s) => s.configMapRef?.name === c.metadata?.name));
    const env: Record<string, string> = { ...configMap?.data };
    for (const entry of apiContainer.env ?? []) if (entry.value !== undefined) env[entry.name] = entry.value;
    env.DATABASE_URL = 'postgres://garage:secret@postgres:5432/garage';
    env.ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig(env);
    t.equal(config.port, 3000);
    t.equal(config.host, '0.0.0.0', 'the image listens on every interface');
    t.equal(config.migrateOnStart, false, 'the Job migrates, once');
    t.equal(config.deliverWebhooks, false, 'the worker Deployment delivers webhooks');
    t.ok(Array.isArray(config.trustProxy) && config.trustProxy.length > 0, 'the ingress controller trusted by its address range, not a hop count');
    t.equal(configMap?.data?.METRICS_HOST, '0.0.0.0', 'metrics reachable on the pod address (the NetworkPolicy restricts them)');
  });

  t.test('api: at least 3 replicas through the autoscaler, one disruption at a time', async (t) => {
    t.equal(api.spec?.replicas, undefined, 'no fixed count that each apply would reset');
    t.same(hpa.spec?.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'garage-api' });
    t.equal(hpa.spec?.minReplicas, 3, 'three replicas at least');
    t.ok(hpa.spec && hpa.spec.maxReplicas >= 3);
    t.ok(hpa.spec?.metrics?.some((m) => m.resource?.name === 'cpu'), 'scales on CPU (requests are set)');
    t.ok(selects(pdb.spec?.selector?.matchLabels, apiLabels), 'the PodDisruptionBudget covers the api pods');
    t.equal(pdb.spec?.maxUnavailable, 1, 'drains take one api pod at a time');
  });

  t.test('Service: the public port only, never metrics', async (t) => {
    t.ok(selects(service.spec?.selector, apiLabels), 'selects the api pods');
    t.notOk(selects(service.spec?.selector, worker.spec?.template.metadata?.labels), 'not the workers');
    t.equal(service.spec?.type, 'ClusterIP', 'published through an Ingress, not a node port');
    t.same(service.spec?.ports?.map((p) => p.targetPort), ['http']);
    for (const port of service.spec?.ports ?? []) {
      t.not(port.targetPort, 'metrics');
      t.not(port.targetPort, 9464);
      t.not(port.port, 9464);
    }
  });

  t.test('NetworkPolicy: ingress denied by default, metrics only from the monitoring namespace', async (t) => {
    const policies = byKind<INetworkPolicy>(objects, 'NetworkPolicy');
    const garagePods = [api, worker].map((d) => d.spec?.template.metadata?.labels);
    const denyAll = policies.find((p) => p.spec?.policyTypes?.includes('Ingress') && !p.spec.ingress);
    for (const labels of garagePods) t.ok(selects(denyAll?.spec?.podSelector?.matchLabels, labels), 'a default deny covers the pods');
    for (const policy of policies) {
      for (const rule of policy.spec?.ingress ?? []) {
        const ports = rule.ports?.map((p) => p.port) ?? [];
        t.ok(ports.length > 0, `${policy.metadata?.name}: every rule names its ports`);
        if (ports.some((p) => p === 'metrics' || p === 9464)) {
          t.ok(rule.from?.length && rule.from.every((peer) => peer.namespaceSelector || peer.podSelector), `${policy.metadata?.name}: metrics from chosen peers only`);
        } else {
          t.same(ports, ['http'], `${policy.metadata?.name}: otherwise the public port`);
          // The API trusts the X-Forwarded-For its proxy writes: any other pod reaching it would choose its address.
          t.ok(
            rule.from?.length && rule.from.every((peer) => peer.namespaceSelector?.matchLabels && peer.podSelector?.matchLabels && !peer.ipBlock),
            `${policy.metadata?.name}: from the ingress controller's pods only`,
          );
          t.ok(selects(policy.spec?.podSelector?.matchLabels, apiLabels), 'of the api pods');
          t.notOk(selects(policy.spec?.podSelector?.matchLabels, worker.spec?.template.metadata?.labels), 'not the workers');
        }
      }
    }
  });

  t.test('NetworkPolicy: api and worker reach only DNS, Postgres, Redis and public addresses', async (t) => {
    const egress = byKind<INetworkPolicy>(objects, 'NetworkPolicy').filter((p) => p.spec?.policyTypes?.includes('Egress'));
    t.equal(egress.length, 1, 'one egress policy');
    const [policy] = egress;
    const selector = policy?.spec?.podSelector;
    const covers = (labels: Record<string, string> | undefined) =>
      selects(selector?.matchLabels, labels) &&
      (selector?.matchExpressions ?? []).every((e) => e.operator === 'In' && (e.values ?? []).includes(labels?.[e.key] ?? ''));
    t.ok(covers(apiLabels), 'of the api pods');
    t.ok(covers(worker.spec?.template.metadata?.labels), 'of the worker pods');
    const rules = policy?.spec?.egress ?? [];
    const portsOf = (rule: (typeof rules)[number]) => (rule.ports ?? []).map((p) => `${p.protocol}/${p.port}`).sort();
    const toPods = (rule: (typeof rules)[number]) => (rule.to ?? []).length > 0 && (rule.to ?? []).every((peer) => peer.podSelector?.matchLabels || peer.ipBlock);
    const dns = rules.find((r) => portsOf(r).join() === 'TCP/53,UDP/53');
    t.ok(dns && toPods(dns), 'DNS, to the cluster resolver only');
    for (const port of ['TCP/5432', 'TCP/6379']) {
      const rule = rules.find((r) => portsOf(r).join() === port);
      t.ok(rule && toPods(rule), `${port}, to a named destination`);
    }
    for (const rule of rules) t.ok((rule.to ?? []).length > 0, `${portsOf(rule).join() || 'every port'}: a destination`);
    const open = rules.filter((r) => (r.ports ?? []).length === 0);
    t.equal(open.length, 1, 'one rule on every port: the public internet');
    const blocks = (open[0]?.to ?? []).map((peer) => peer.ipBlock);
    t.ok(blocks.length > 0 && blocks.every(Boolean), 'by address blocks only');
    const v4 = blocks.find((b) => b?.cidr === '0.0.0.0/0');
    for (const inside of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '127.0.0.0/8']) t.ok(v4?.except?.includes(inside), `not ${inside}`);
    // IPv6: the global unicast space only, so that link-local, unique-local, IPv4-compatible (::/96) and NAT64
    // (64:ff9b::/96) addresses, which can reach an internal IPv4 address, are outside; its special ranges excepted.
    const v6 = blocks.filter((b) => b?.cidr !== '0.0.0.0/0');
    t.same(v6.map((b) => b?.cidr), ['2000::/3'], 'IPv6: 2000::/3 only');
    for (const special of ['2001::/23', '2001:db8::/32', '2002::/16']) t.ok(v6[0]?.except?.includes(special), `not ${special}`);
  });

  t.test('worker: its command, probes, security and secrets', async (t) => {
    t.same(workerContainer.command, ['node', 'worker/dist/main.js']);
    checkProbes(t, 'worker', workerContainer);
    checkPodSecurity(t, 'worker', worker.spec?.template);
    checkSecretReferences(t, 'worker', workerContainer, configMaps);
  });

  t.test('migration Job: the CLI migrate command, once, from the same image', async (t) => {
    t.same(migrateContainer.command, ['node', 'cli/dist/main.js', 'migrate', '--json']);
    t.equal(podSpec(migrate.spec?.template).restartPolicy, 'Never');
    t.ok(migrate.spec?.backoffLimit !== undefined && migrate.spec.activeDeadlineSeconds, 'bounded retries and time');
    checkPodSecurity(t, 'migrate', migrate.spec?.template);
    // The schema owner's credentials; the api and the worker get a role that cannot change the schema.
    checkSecretReferences(t, 'migrate', migrateContainer, configMaps, { DATABASE_URL: 'MIGRATION_DATABASE_URL' });
    const images = new Set([apiContainer, workerContainer, migrateContainer].map((c) => c.image));
    t.equal(images.size, 1, 'api, worker and migrations run one release');
  });

  t.test('Postgres connections: the worst case fits max_connections', async (t) => {
    const surge = Number(api.spec?.strategy?.rollingUpdate?.maxSurge ?? 1);
    const apiConnections = ((hpa.spec?.maxReplicas ?? 0) + surge) * poolMax(api, configMaps);
    const workerConnections = (worker.spec?.replicas ?? 1) * poolMax(worker, configMaps);
    t.ok(apiConnections + workerConnections + CLI_POOL <= POSTGRES_CONNECTIONS, `${apiConnections} + ${workerConnections} + ${CLI_POOL} ≤ ${POSTGRES_CONNECTIONS}`);
  });
};

t.test('the image runs as a numeric non-root user', async (t) => {
  t.ok(imageUser, 'USER uid[:gid] in the runtime stage');
  t.ok(Number(imageUser?.[1]) > 0, 'not root');
});

t.test('the validator rejects what the API server would', async (t) => {
  const [deployment] = byKind<KubernetesObject>(await render('base'), 'Deployment');
  const broken = structuredClone(deployment) as unknown as IDeployment;
  const container = podSpec(broken.spec?.template).containers[0] as IContainer;
  (container.ports as unknown[])[0] = { containerPort: 'http' };
  t.throws(() => validateObject(broken as unknown as KubernetesObject), /containerPort/);
  t.throws(() => validateObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray' } }), /not a kind/);
});

t.test('base', async (t) => {
  const objects = await render('base');
  checkRender(t, objects);
  t.test('local image, for a cluster that loads garage-api:local', async (t) => {
    t.same(new Set(objects.flatMap(imagesOf)), new Set(['garage-api:local']));
  });
});

t.test('overlays/production', async (t) => {
  const objects = await render('overlays/production');
  checkRender(t, objects);
  t.test('its own restricted namespace and a pinned release', async (t) => {
    const namespace = one<KubernetesObject>(objects, 'Namespace', 'garage');
    t.equal(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'restricted');
    for (const object of objects.filter((o) => o.kind !== 'Namespace')) t.equal(object.metadata.namespace, 'garage', `${object.kind} ${object.metadata.name}`);
    const images = new Set(objects.flatMap(imagesOf));
    t.equal(images.size, 1);
    for (const image of images) t.match(image, /^[a-z0-9.-]+\.[a-z]+(:\d+)?\/[^:@]+(:(?!latest$|local$)[\w.-]+|@sha256:[0-9a-f]{64})$/, 'from a registry, by version or digest');
    t.equal(one<IDeployment>(objects, 'Deployment', 'garage-worker').spec?.replicas, 2, 'deliveries continue while one worker restarts');
  });
});

function imagesOf(object: KubernetesObject): string[] {
  const template = (object as { spec?: { template?: IPodTemplateSpec } }).spec?.template;
  return template?.spec ? template.spec.containers.map((c) => String(c.image)) : [];
}
