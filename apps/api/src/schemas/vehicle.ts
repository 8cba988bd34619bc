import { FUELS, VEHICLE_ITEM } from '@garage/domain';
import { Type } from 'typebox';
import { CURRENCY_DOCS } from './common.js';
import { listItemSchema } from './list-item.js';

export const Fuel = Type.Enum([...FUELS]);

/** Derived from the domain's item shape (docs/contributors/adding-a-list-field.md); these lines only document it. */
export const Vehicle = listItemSchema(VEHICLE_ITEM, 'Vehicle', {
  priceCents: { description: 'Price in minor units' },
  currency: CURRENCY_DOCS,
  photos: { format: 'uri' },
  // The use cases never return sold vehicles.
  status: { shown: ['available', 'reserved'], description: 'Sold vehicles are never shown' },
});
