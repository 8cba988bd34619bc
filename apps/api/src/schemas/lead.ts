import { LEAD_FIELD_LIMITS as L } from '@garage/domain';
import { Type } from 'typebox';
import { DateTime, Uuid } from './common.js';

/** docs/reference/contract.md §4.3; the limits are the domain's, which enforces them for every transport. */
export const LeadBody = Type.Object(
  {
    vehicleId: Uuid({ description: 'A vehicle of the fleet that is not sold' }),
    name: Type.String({ minLength: 1, maxLength: L.name }),
    email: Type.Optional(Type.String({ maxLength: L.email.max, pattern: L.email.pattern.source, description: 'Email or phone is required' })),
    phone: Type.Optional(Type.String({ maxLength: L.phone.max, pattern: L.phone.pattern.source, description: 'Email or phone is required' })),
    message: Type.Optional(Type.String({ maxLength: L.message })),
    consent: Type.Literal(true, { description: 'The visitor agreed to be contacted: must be true' }),
  },
  { additionalProperties: false, title: 'Lead' },
);

/** What `POST /fleet/lead` answers: the lead it stored. */
export const SubmittedLead = Type.Object(
  {
    id: Uuid(),
    vehicleId: Uuid({ description: 'The vehicle the lead is about' }),
    createdAt: DateTime(),
  },
  { additionalProperties: false, title: 'SubmittedLead' },
);
