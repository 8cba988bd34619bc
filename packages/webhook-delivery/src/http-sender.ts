import type { WebhookSender } from '@garage/domain';

interface ErrorWithCause {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

/** fetch hides the reason in `cause` ("fetch failed" → ECONNREFUSED…): the delivery log should name the reason. */
const describe = (err: unknown, timeoutMs: number): string => {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorWithCause;
  if (e.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`;
  const cause = (typeof e.cause === 'object' && e.cause !== null ? e.cause : undefined) as ErrorWithCause | undefined;
  if (cause && typeof cause.message === 'string') {
    return typeof cause.code === 'string' && !cause.message.includes(cause.code)
      ? `${cause.code}: ${cause.message}`
      : cause.message;
  }
  return typeof e.message === 'string' ? e.message : String(err);
};

/**
 * POSTs webhooks with the platform fetch. Redirects are not followed: a 3xx is an answer like any other non-2xx
 * (retried), so a signed request never travels to a URL the operator did not configure. Loopback and private
 * addresses are allowed on purpose (docs/reference/contract.md §5: operators set the URLs).
 */
export const makeHttpSender = ({ userAgent = 'garage-webhooks/1.0' }: { userAgent?: string } = {}): WebhookSender => ({
  async send({ url, headers, body, timeoutMs }) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'user-agent': userAgent, ...headers },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Only the status matters; dropping the body frees the connection for the next delivery.
      await response.body?.cancel().catch(() => {});
      return { statusCode: response.status };
    } catch (err) {
      return { error: describe(err, timeoutMs) };
    }
  },
});
