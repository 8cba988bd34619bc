import { FUELS, GEARBOXES, type VehicleStatus } from '@garage/domain';
import { Type } from 'typebox';
import { Currency, DateTime, Nullable, Uuid } from './common.js';

export const Fuel = Type.Enum([...FUELS]);

/**
 * Lists send this item as the database rendered it when the row was written (docs/operators/performance.md, "List
 * pages"): a change to its fields needs a migration that renders it anew, or list-pages-bytes.test.ts fails.
 */
export const Vehicle = Type.Object(
  {
    id: Uuid(),
    reference: Type.String(),
    make: Type.String(),
    model: Type.String(),
    version: Nullable(Type.String()),
    year: Type.Integer(),
    mileageKm: Type.Integer(),
    fuel: Fuel,
    gearbox: Type.Enum([...GEARBOXES]),
    priceCents: Type.Integer({ description: 'Price in minor units' }),
    currency: Currency,
    color: Nullable(Type.String()),
    description: Nullable(Type.String()),
    photos: Type.Array(Type.String({ format: 'uri' })),
    // Typed as the domain's status so handlers return domain vehicles as they are; the use-cases never return sold ones.
    status: Type.Unsafe<VehicleStatus>(Type.Enum(['available', 'reserved'], { description: 'Sold vehicles are never shown' })),
    publishedAt: DateTime(),
    updatedAt: DateTime(),
  },
  { additionalProperties: false, title: 'Vehicle' },
);
