import { Type } from 'typebox';
import { Currency, DateTime, Nullable, Uuid } from './common.js';

/**
 * Lists send this item as the database rendered it when the row was written (docs/operators/performance.md, "List
 * pages"): a change to its fields needs a migration that renders it anew, or list-pages-bytes.test.ts fails.
 */
export const Product = Type.Object(
  {
    id: Uuid(),
    sku: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    category: Nullable(Type.String()),
    brand: Nullable(Type.String()),
    priceCents: Type.Integer({ description: 'Price in minor units' }),
    currency: Currency,
    vatRate: Type.Number({ description: 'Percentage, e.g. 20' }),
    unit: Type.String({ examples: ['piece', 'litre', 'hour'] }),
    active: Type.Boolean({ description: 'false only appears when listing with updatedSince' }),
    updatedAt: DateTime(),
  },
  { additionalProperties: false, title: 'Product' },
);

/**
 * Lists send this item as the database rendered it when the row was written (docs/operators/performance.md, "List
 * pages"): a change to its fields needs a migration that renders it anew, or list-pages-bytes.test.ts fails.
 */
export const StockItem = Type.Object(
  {
    productId: Uuid(),
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 0 }),
    updatedAt: DateTime(),
  },
  { additionalProperties: false, title: 'StockItem' },
);
