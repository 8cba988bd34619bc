// What the scenarios need to know before the load starts, asked of the running API the way a connector would:
// ETags of first pages, cursors deep into long lists, bookable slots, vehicles for leads.

const fetchJson = async (url, headers = {}) => {
  const response = await globalThis.fetch(url, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${bytes.toString('utf8').slice(0, 200)}`);
  return { bytes, body: JSON.parse(bytes.toString('utf8')), etag: response.headers.get('etag') };
};

export const firstPage = (api, garage, list) =>
  fetchJson(`${api.url}/api/public/${list}?limit=100`, { 'x-api-key': garage.key });

/**
 * Walks the whole products list of `garage` with `walkLimit`, returning the cursor after each page together with the
 * number of items before it (its depth). Every cursor is a real `nextCursor`, signed by the API.
 */
export const walkCursors = async (api, garage, walkLimit) => {
  const cursors = [];
  let cursor = null;
  let depth = 0;
  do {
    const query = `limit=${walkLimit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { body } = await fetchJson(`${api.url}/api/public/products?${query}`, { 'x-api-key': garage.key });
    depth += body.data.length;
    cursor = body.nextCursor;
    if (cursor) cursors.push({ cursor, depth });
  } while (cursor);
  return { cursors, total: depth };
};

/** The paths the running API documents: leads and bookings are benchmarked only once their routes exist. */
export const documentedPaths = async (api) => {
  const { body } = await fetchJson(`${api.url}/api/public/openapi.json`);
  return new Set(Object.keys(body.paths ?? {}));
};

const isoDate = (date) => date.toISOString().slice(0, 10);

/** Every bookable start of the booking garage over its horizon, in windows of at most 31 days (the API's limit). */
export const bookableSlots = async (api, garage, horizonDays) => {
  const slots = [];
  const day = 86_400_000;
  for (let offset = 0; offset < horizonDays; offset += 31) {
    const from = isoDate(new Date(Date.now() + offset * day));
    const to = isoDate(new Date(Date.now() + Math.min(offset + 30, horizonDays - 1) * day));
    const { body } = await fetchJson(`${api.url}/api/public/appointments/availability?from=${from}&to=${to}`, {
      'x-api-key': garage.key,
    });
    for (const slot of body.data) slots.push(slot.startsAt);
  }
  return slots;
};

/** The same slots taken round-robin by local date: consecutive bookings fall on different days. */
export const spreadOverDays = (slots) => {
  const byDay = new Map();
  for (const slot of slots) {
    const day = slot.slice(0, 10);
    if (!byDay.has(day)) byDay.set(day, []);
    byDay.get(day).push(slot);
  }
  const queues = [...byDay.values()];
  const spread = [];
  for (let i = 0; spread.length < slots.length; i++) {
    for (const queue of queues) if (i < queue.length) spread.push(queue[i]);
  }
  return spread;
};

/** Vehicles of the fleet lists (not sold), for the lead scenario. */
export const listedVehicleIds = async (api, garages) => {
  const ids = [];
  for (const garage of garages) {
    const { body } = await fetchJson(`${api.url}/api/public/fleet?garageSlug=${garage.slug}&limit=20`);
    for (const vehicle of body.data) ids.push(vehicle.id);
  }
  return ids;
};
