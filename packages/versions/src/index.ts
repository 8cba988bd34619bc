export { API_VERSIONS } from './api-versions.js';
export { changelogMarkdown } from './changelog.js';
export { renderWebhookBody } from './webhook-body.js';
export { renderEvent, type RenderedEvent, type StoredEvent } from './event-body.js';
export { makeRegistry, type ApiVersion, type VersionRegistry } from './registry.js';
export type { Json, PreviousShape, VersionChange } from './version-change.js';
