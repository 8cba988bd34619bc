import { PRODUCT_ITEM, STOCK_ITEM } from '@garage/domain';
import { CURRENCY_DOCS } from './common.js';
import { listItemSchema } from './list-item.js';

/** Derived from the domain's item shape (docs/contributors/adding-a-list-field.md); these lines only document it. */
export const Product = listItemSchema(PRODUCT_ITEM, 'Product', {
  priceCents: { description: 'Price in minor units' },
  currency: CURRENCY_DOCS,
  vatRate: { description: 'Percentage, e.g. 20' },
  unit: { examples: ['piece', 'litre', 'hour'] },
  active: { description: 'false only appears when listing with updatedSince' },
});

export const StockItem = listItemSchema(STOCK_ITEM, 'StockItem', { quantity: { minimum: 0 } });
