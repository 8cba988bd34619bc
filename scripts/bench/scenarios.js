// The workloads. Each names the statuses a correct run answers with: anything else (or a socket error) marks the row,
// and the run fails, because a fast wrong answer is not a result.

const LIST_LIMIT = 100;

/**
 * Page sizes for the cache-miss variants: around 100 on average, and never the 100 that the cached variants and
 * the cursor walk use, so that every (cursor, limit) pair is asked for once and no response cache can answer it.
 */
const MISS_LIMITS = [...Array.from({ length: 10 }, (_, i) => 90 + i), ...Array.from({ length: 10 }, (_, i) => 101 + i)];

const get = (path, headers = {}) => ({ method: 'GET', path, headers });

/**
 * How many pages the repeated variants cycle over: what one garage's share of the list cache holds whole (some 100
 * pages of 100 products, apps/api/src/plugins/list-cache.ts), with room to spare. Every cursor of a long list (890 or
 * 1,000 pages of 40 KB) is ten times what the cache keeps of one garage: the figure would then measure how closely
 * autocannon's connections, each walking the list from its start, follow one another.
 */
const REPEATED_PAGES = 50;

/** `count` of `cursors`, spread evenly over the list's depth, the deepest included. */
const spreadOver = (cursors, count) => {
  const n = Math.min(count, cursors.length);
  return Array.from({ length: n }, (_, i) => cursors[Math.floor(((i + 1) * cursors.length) / n) - 1]);
};

/**
 * Requests cycling over REPEATED_PAGES of `cursors` with `limit=100`, from shallow to deepest: the same pages again
 * and again, as repeated polls ask for.
 */
const deepPages = (garage, cursors) =>
  spreadOver(cursors, REPEATED_PAGES).map(({ cursor }) =>
    get(`/api/public/products?limit=${LIST_LIMIT}&cursor=${encodeURIComponent(cursor)}`, { 'x-api-key': garage.key }),
  );

/** One request template whose cursor and limit change on every request, never repeating a pair within the run. */
const deepPagesMissing = (garage, cursors) => {
  let n = 0;
  return {
    requests: [
      {
        method: 'GET',
        headers: { 'x-api-key': garage.key },
        setupRequest: (request) => {
          const { cursor } = cursors[n % cursors.length];
          const limit = MISS_LIMITS[Math.floor(n / cursors.length) % MISS_LIMITS.length];
          n += 1;
          return { ...request, path: `/api/public/products?limit=${limit}&cursor=${encodeURIComponent(cursor)}` };
        },
      },
    ],
    distinct: cursors.length * MISS_LIMITS.length,
    sent: () => n,
  };
};

/** A distinct client address per request (10.0.0.0/8 has 16.7 million): the per-IP lead limit never triggers. */
const clientAddress = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export const buildScenarios = ({ api, bare, fixtures }) => {
  const { regular, big, small, booking, days } = fixtures.garages;
  const scenarios = [
    {
      name: 'bare Fastify route, same bytes',
      url: bare.url,
      baseline: true,
      expect: [200],
      requests: [get('/products')],
    },
    {
      name: 'products limit=100',
      expect: [200],
      target: 'read',
      requests: regular.map((g) => get(`/api/public/products?limit=${LIST_LIMIT}`, { 'x-api-key': g.key })),
    },
    {
      name: 'products 304 (If-None-Match)',
      expect: [304],
      target: 'conditional',
      requests: regular.map((g) =>
        get(`/api/public/products?limit=${LIST_LIMIT}`, { 'x-api-key': g.key, 'if-none-match': fixtures.etags.get(g.id) }),
      ),
    },
    {
      name: 'stock limit=100',
      expect: [200],
      target: 'read',
      requests: regular.map((g) => get(`/api/public/stock?limit=${LIST_LIMIT}`, { 'x-api-key': g.key })),
    },
    {
      name: 'fleet by garageSlug',
      expect: [200],
      target: 'read',
      requests: regular.map((g) => get(`/api/public/fleet?garageSlug=${g.slug}`)),
    },
    {
      name: `deep pages, ${small.products} products`,
      expect: [200],
      target: 'read',
      scaling: { group: 'repeated', size: small.products },
      requests: deepPages(small, fixtures.smallCursors),
    },
    {
      name: `deep pages, ${big.products} products`,
      expect: [200],
      target: 'read',
      scaling: { group: 'repeated', size: big.products },
      requests: deepPages(big, fixtures.bigCursors),
    },
    {
      name: `deep pages, ${small.products} products, never the same page twice`,
      expect: [200],
      target: 'read',
      scaling: { group: 'distinct', size: small.products },
      ...deepPagesMissing(small, fixtures.smallCursors),
    },
    {
      name: `deep pages, ${big.products} products, never the same page twice`,
      expect: [200],
      target: 'read',
      scaling: { group: 'distinct', size: big.products },
      ...deepPagesMissing(big, fixtures.bigCursors),
    },
  ];

  // A connector checking single items: every request a sku not asked for before, so each one reaches the database.
  let skuIndex = 0;
  scenarios.push({
    name: `stock ?sku=, ${big.products} products, never the same sku twice`,
    expect: [200],
    target: 'read',
    distinct: big.products,
    sent: () => skuIndex,
    requests: [
      {
        method: 'GET',
        headers: { 'x-api-key': big.key },
        setupRequest: (request) => {
          skuIndex += 1;
          return { ...request, path: `/api/public/stock?sku=SKU-${String(skuIndex).padStart(6, '0')}` };
        },
      },
    ],
  });

  if (fixtures.leadVehicleIds) {
    const vehicles = fixtures.leadVehicleIds;
    let n = 0;
    scenarios.push({
      name: 'lead creation (X-Forwarded-For per request)',
      expect: [201],
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => {
            n += 1;
            return {
              ...request,
              headers: { ...request.headers, 'x-forwarded-for': clientAddress(n) },
              body: JSON.stringify({
                vehicleId: vehicles[n % vehicles.length],
                name: `Prospect ${n}`,
                email: `prospect${n}@example.com`,
                message: 'Is it still available? Could I try it on Saturday morning?',
                consent: true,
              }),
            };
          },
          path: '/api/public/fleet/lead',
        },
      ],
    });
  }

  if (fixtures.busyRange) {
    const { from, to } = fixtures.busyRange;
    scenarios.push({
      name: 'availability, 31 busy days (~4,500 appointments)',
      expect: [200],
      requests: [get(`/api/public/appointments/availability?from=${from}&to=${to}`, { 'x-api-key': fixtures.garages.busy.key })],
    });
  }

  if (fixtures.slots) {
    const slots = fixtures.slots;
    let n = 0;
    scenarios.push({
      name: 'booking, one garage, 4 requests per slot',
      expect: [201, 409],
      booking: true,
      // Every request takes a new place: a warm-up would only use up the slots.
      warmup: false,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': booking.key },
          setupRequest: (request) => {
            // Consecutive requests (in flight on different connections at once) share a slot of capacity 2:
            // about half must win, half must get SLOT_FULL, none may overbook.
            const startsAt = slots[Math.floor(n / 4) % slots.length];
            n += 1;
            return {
              ...request,
              body: JSON.stringify({
                startsAt,
                customer: { name: `Customer ${n}`, email: `customer${n}@example.com` },
                vehicle: { plate: 'AB-123-CD', make: 'Peugeot', model: '208' },
              }),
            };
          },
          path: '/api/public/appointments',
        },
      ],
    });
  }

  if (fixtures.daySlots) {
    const slots = fixtures.daySlots;
    let n = 0;
    scenarios.push({
      name: 'booking across days, one request per place',
      // Consecutive requests on different days (and so under different locks); each pass over the slots takes one
      // more of their 10 places. SLOT_FULL only once every place is taken.
      expect: [201, 409],
      booking: 'days',
      warmup: false,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': days.key },
          setupRequest: (request) => {
            const startsAt = slots[n % slots.length];
            n += 1;
            return {
              ...request,
              body: JSON.stringify({ startsAt, customer: { name: `Customer ${n}`, email: `customer${n}@example.com` } }),
            };
          },
          path: '/api/public/appointments',
        },
      ],
    });
  }

  return scenarios.map((s) => ({ warmup: true, url: api.url, ...s }));
};
