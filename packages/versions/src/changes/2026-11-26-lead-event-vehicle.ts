import { Type } from 'typebox';
import type { Json, VersionChange } from '../version-change.js';

const NullableString = () => Type.Union([Type.String(), Type.Null()]);

/** The `lead.created` data of `2026-11-21`. */
const LeadEvent = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    vehicleId: Type.String({ format: 'uuid' }),
    vehicleReference: Type.String(),
    name: Type.String(),
    email: NullableString(),
    phone: NullableString(),
    message: NullableString(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'LeadEvent' },
);

/** `lead.created` names the vehicle it is about, so that a receiver need not look it up. */
export const leadEventVehicle: VersionChange = {
  version: '2026-11-26',
  description:
    'The `lead.created` event carries `data.vehicle`: `{"id", "reference", "make", "model", "year"}`, instead of ' +
    '`data.vehicleId` and `data.vehicleReference`.',
  events: {
    'lead.created': {
      schema: LeadEvent,
      // Data without `vehicle` was not written in the newer shape: it passes unchanged.
      toPrevious: ({ id, vehicle, ...rest }) =>
        typeof vehicle === 'object' && vehicle !== null
          ? { id, vehicleId: (vehicle as Json).id, vehicleReference: (vehicle as Json).reference, ...rest }
          : { id, ...rest },
    },
  },
};
