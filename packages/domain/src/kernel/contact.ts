import type { Checker } from './validation.js';

/**
 * How a customer can be reached: a name, and an email or a phone (or both). Appointments (§4.1) and leads (§4.3)
 * apply this one rule; their transports state the same limits.
 */
export const CONTACT_LIMITS = {
  name: 120,
  email: { max: 254, pattern: /^[^\s@]+@[^\s@]+$/ },
  phone: { max: 32, pattern: /^\+?[0-9][0-9 ().-]*$/ },
} as const;

const present = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Checks a contact whose fields sit at `${at}/name`, `${at}/email` and `${at}/phone`. A contact with neither email
 * nor phone is reported at `missingAt` (the object for an appointment's customer, the email field for a lead).
 */
export const checkContact = (
  check: Checker,
  contact: { name?: unknown; email?: unknown; phone?: unknown },
  { at, missingAt }: { at: string; missingAt: string },
): void => {
  const L = CONTACT_LIMITS;
  if (typeof contact.name === 'string' && contact.name.trim() === '') check.fail(`${at}/name`, 'must not be blank');
  else check.string(`${at}/name`, contact.name, { max: L.name });
  check.string(`${at}/email`, contact.email, { optional: true, max: L.email.max });
  if (typeof contact.email === 'string' && !L.email.pattern.test(contact.email)) check.fail(`${at}/email`, 'must be an email address');
  check.string(`${at}/phone`, contact.phone, { optional: true, max: L.phone.max });
  if (typeof contact.phone === 'string' && !L.phone.pattern.test(contact.phone)) check.fail(`${at}/phone`, 'must be a phone number');
  if (!present(contact.email) && !present(contact.phone)) check.fail(missingAt, 'must have an email or a phone');
};
