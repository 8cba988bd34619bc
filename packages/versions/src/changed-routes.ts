import type { VersionRegistry } from './registry.js';

/** A route as a version change names it: `'<METHOD> <route pattern>'`, split for the router's `hasRoute`. */
export interface ChangedRoute {
  method: string;
  url: string;
}

/** Every route whose responses some change of `registry` takes back to an older shape, each once. */
export const routesChangedBy = (registry: VersionRegistry): ChangedRoute[] => {
  const keys = new Set(registry.versions.flatMap((v) => v.changes.flatMap((change) => Object.keys(change.responses ?? {}))));
  return [...keys].map((key) => {
    const space = key.indexOf(' ');
    return { method: key.slice(0, space), url: key.slice(space + 1) };
  });
};
