import type { Json, PreviousShape, VersionChange } from './version-change.js';

/** A version a connector may ask for, and what `versions` and the deprecation headers say of it. */
export interface ApiVersion {
  version: string;
  /** The breaking changes this version made to the one before it (none for the first). */
  changes: readonly VersionChange[];
  /** A deprecated version is still served, with `Deprecation` and `Sunset` headers, until `sunsetAt`. */
  deprecation: { since: string; sunsetAt: string } | null;
}

export interface VersionRegistry {
  /** Oldest first. */
  readonly versions: readonly ApiVersion[];
  readonly oldest: string;
  readonly latest: string;
  find(version: string): ApiVersion | undefined;
  /** The response at `version` of a handler's newest-shape `body`: every newer change's transform, newest first. */
  renderResponse(version: string, route: string, status: number, body: Json): Json;
  /** An event's stored (newest) `data` at `version`. */
  renderEventData(version: string, type: string, data: Json): Json;
  /** The schema a response or an event has at `version`, when a change newer than it altered it. */
  previousResponseSchema(version: string, route: string, status: number): PreviousShape['schema'] | undefined;
  previousEventSchema(version: string, type: string): PreviousShape['schema'] | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The registry of supported versions: the first, then one version per date that changes ship under, in order.
 * Deprecations are listed by version. Throws at start on a registry that could not serve (dates out of order).
 */
export const makeRegistry = ({
  first,
  changes,
  deprecations = {},
}: {
  first: string;
  changes: readonly VersionChange[];
  deprecations?: Record<string, { since: string; sunsetAt: string }>;
}): VersionRegistry => {
  const dates = [first, ...new Set(changes.map((c) => c.version))];
  dates.forEach((date, i) => {
    if (!DATE.test(date)) throw new Error(`version ${date} is not a YYYY-MM-DD date`);
    if (i > 0 && date <= dates[i - 1]!) throw new Error(`version ${date} is listed after ${dates[i - 1]}: list changes oldest first`);
  });
  const versions: ApiVersion[] = dates.map((version) => ({
    version,
    changes: changes.filter((c) => c.version === version),
    deprecation: deprecations[version] ?? null,
  }));
  /** The changes a response at `version` is taken back through, newest first. */
  const newerThan = (version: string) => changes.filter((c) => c.version > version).reverse();
  const previous = (version: string, shapeOf: (c: VersionChange) => PreviousShape | undefined) =>
    newerThan(version).reduce<PreviousShape | undefined>((found, change) => shapeOf(change) ?? found, undefined);
  const apply = (version: string, shapeOf: (c: VersionChange) => PreviousShape | undefined, value: Json) =>
    newerThan(version).reduce((current, change) => shapeOf(change)?.toPrevious(current) ?? current, value);

  return {
    versions,
    oldest: first,
    latest: dates[dates.length - 1]!,
    find: (version) => versions.find((v) => v.version === version),
    renderResponse: (version, route, status, body) => apply(version, (c) => c.responses?.[route]?.[status], body),
    renderEventData: (version, type, data) => apply(version, (c) => c.events?.[type], data),
    previousResponseSchema: (version, route, status) => previous(version, (c) => c.responses?.[route]?.[status])?.schema,
    previousEventSchema: (version, type) => previous(version, (c) => c.events?.[type])?.schema,
  };
};
