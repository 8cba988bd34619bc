import { Type, type TSchema } from 'typebox';

const DEFAULT_PAGE_LIMIT = 100;

/** Query parameters shared by every list (docs/reference/contract.md §4.2). */
export const listQueryFields = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: DEFAULT_PAGE_LIMIT, description: 'Page size, 1 to 500' })),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 512, description: 'Opaque: the `nextCursor` of the previous page, with the same filters' }),
  ),
  updatedSince: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'RFC 3339 time with offset; only items with `updatedAt >= updatedSince`',
      examples: ['2026-01-01T00:00:00Z'],
    }),
  ),
};

export const apiKeyQueryField = {
  apiKey: Type.Optional(
    Type.String({
      description:
        'Discouraged alternative to the `x-api-key` header: responses carry `Deprecation: true`. Query strings end up in proxy and browser logs; send the header.',
      deprecated: true,
    }),
  ),
};

export const Page = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
    },
    { additionalProperties: false },
  );

/** What every list hands to its use-case, whatever the resource. */
export const pageRequest = (q: { limit?: number; cursor?: string; updatedSince?: string }) => ({
  // The validator has applied the default already; the type cannot know it.
  limit: q.limit ?? DEFAULT_PAGE_LIMIT,
  cursor: q.cursor ?? null,
  updatedSince: q.updatedSince === undefined ? null : new Date(q.updatedSince),
});
