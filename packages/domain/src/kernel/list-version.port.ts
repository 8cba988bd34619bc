/** The lists connectors poll (docs/reference/contract.md §4.2). */
export type ListName = 'products' | 'stock' | 'vehicles';

/**
 * "Has anything this list can show changed for these garages?", answered cheaply: an opaque version per garage that
 * changes when a write changes what the list returns, read from an index rather than from the rows. It lets a page be
 * validated without being read again. A write it cannot see (a row deleted, or one committed with a timestamp older
 * than the newest row) is caught by the caller's bound on how long it trusts a version.
 */
export interface ListVersionProbe {
  /** The version of `list` for each of `garageIds`; every id given gets one, a garage without rows too. */
  versions(list: ListName, garageIds: readonly string[]): Promise<Map<string, string>>;
}
