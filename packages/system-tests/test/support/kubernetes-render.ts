import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { parseAllDocuments } from 'yaml';

/**
 * Renders deploy/kubernetes with kustomize (the build `kubectl apply -k` embeds) and checks every object against the
 * Kubernetes API schemas (kubernetes-models, generated from the API server's OpenAPI document). Offline: both come
 * from node_modules.
 */

const require = createRequire(import.meta.url);
const kustomize = require.resolve('kustomize/run.js');

export const kubernetesDir = (path: string) => fileURLToPath(new URL(`../../../../deploy/kubernetes/${path}`, import.meta.url));

/** The kinds the manifests may use, each with the model that validates it. Anything else fails the test. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Throws, naming the object and the schema violations, unless `object` is a valid object of a known kind. */
export const validateObject = (object: KubernetesObject): void => {
  const Kind = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Kind) throw new Error(`${object.apiVersion} ${object.kind} ${object.metadata?.name}: not a kind these manifests may use`);
  try {
    new Kind(structuredClone(object)).validate();
  } catch (err) {
    throw new Error(`${object.kind} ${object.metadata?.name} does not match the Kubernetes schema: ${(err as Error).message}`, { cause: err });
  }
};

/** `kustomize build` of one kustomization directory, as parsed objects. Fails on a kustomize or YAML error. */
export const render = async (kustomization: string): Promise<KubernetesObject[]> => {
  const { stdout } = await promisify(execFile)(process.execPath, [kustomize, 'build', kubernetesDir(kustomization)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return parseAllDocuments(stdout).map((document) => {
    if (document.errors.length > 0) throw new Error(`kustomize printed invalid YAML: ${document.errors[0]?.message}`);
    return document.toJS() as KubernetesObject;
  });
};
