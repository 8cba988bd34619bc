import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';
import type { WebhookEvent } from './webhook-event.js';
import type { WebhookFeed } from './webhook-feed.port.js';

export interface IntegrationEventsQuery extends PageRequest {
  integrationId: string;
  type: string | null;
  since: Date | null;
}

/** `GET /events`: the calling integration's event feed, oldest first, from which a connector catches up. */
export const makeListIntegrationEvents =
  ({ feed, cursors }: { feed: Pick<WebhookFeed, 'listEvents'>; cursors: CursorCodec }) =>
  (q: IntegrationEventsQuery): Promise<Page<WebhookEvent>> =>
    fetchPage(
      cursors,
      `events|${q.integrationId}|${q.type ?? ''}|${q.since?.toISOString() ?? ''}`,
      q,
      (e) => ({ sortValue: e.occurredAt, id: e.id }),
      (after, limit) => feed.listEvents({ integrationId: q.integrationId, limit, after, type: q.type, since: q.since }),
    );
