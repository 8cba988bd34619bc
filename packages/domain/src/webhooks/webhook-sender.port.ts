export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** What came back: an HTTP status (any, redirects included), or why there was none (timeout, refused, DNS…). */
export type WebhookResponse = { statusCode: number } | { error: string };

/** One HTTP POST. Never throws: every failure is a `{ error }` so that it is recorded and retried like a 5xx. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
