export interface RetryOptions {
  /** Retries after the first try (default 3): at most maxRetries + 1 requests per call. */
  maxRetries?: number;
  /** First backoff in ms, doubled at each retry with jitter (default 200). */
  baseDelayMs?: number;
  /** No single wait is longer, Retry-After included (default 30 s). */
  maxDelayMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as `Retry-After` allows; null when absent or unreadable. */
const retryAfterMs = (response: Response): number | null => {
  const value = response.headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
};

/** 503, 429, and 409 IDEMPOTENCY_IN_PROGRESS (the first request with the same key is still running) are worth another try. */
const isRetryable = async (response: Response): Promise<boolean> => {
  if (response.status === 503 || response.status === 429) return true;
  if (response.status !== 409) return false;
  const body = (await response.clone().json().catch(() => null)) as { code?: unknown } | null;
  return body?.code === 'IDEMPOTENCY_IN_PROGRESS';
};

/**
 * A fetch that retries a request on network errors, 503, 429 (after `Retry-After`) and 409 IDEMPOTENCY_IN_PROGRESS,
 * with exponential backoff and a bounded number of tries (docs/reference/contract.md §7). Every retry sends the same request, headers
 * included, so a POST keeps its Idempotency-Key and the API answers a replay with the first result.
 */
export const retryingFetch = (
  baseFetch: typeof fetch,
  { maxRetries = 3, baseDelayMs = 200, maxDelayMs = 30_000 }: RetryOptions = {},
): typeof fetch =>
  (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2));
      let response: Response;
      try {
        response = await baseFetch(request.clone());
      } catch (err) {
        // An abort is the caller's decision, not a network failure.
        if (attempt >= maxRetries || request.signal.aborted) throw err;
        await sleep(backoff);
        continue;
      }
      if (attempt >= maxRetries || !(await isRetryable(response))) return response;
      const wait = response.status === 429 || response.status === 503 ? (retryAfterMs(response) ?? backoff) : backoff;
      await response.body?.cancel().catch(() => {});
      await sleep(Math.min(maxDelayMs, wait));
    }
  }) as typeof fetch;
