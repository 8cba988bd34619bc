import { Type } from 'typebox';
import { Currency, DateTime, Nullable, Uuid } from './common.js';

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

export const StockItem = Type.Object(
  {
    productId: Uuid(),
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 0 }),
    updatedAt: DateTime(),
  },
  { additionalProperties: false, title: 'StockItem' },
);
