export { API_VERSIONS } from './api-versions.js';
export { changelogMarkdown } from './changelog.js';
export { routesChangedBy, type ChangedRoute } from './changed-routes.js';
export { webhookBodyRenderer } from './webhook-body.js';
export { renderEvent, type RenderedEvent, type StoredEvent } from './event-body.js';
export { makeRegistry, type ApiVersion, type VersionRegistry } from './registry.js';
export type { Json, PreviousShape, VersionChange } from './version-change.js';
