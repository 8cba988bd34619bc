/** Leads: a visitor's interest in a vehicle for sale. */
export type { Lead } from '../entities/lead.js';
export type { LeadRepository, NewLead } from '../ports/lead-repository.port.js';
export { LEAD_FIELD_LIMITS, makeSubmitLead, type SubmitLeadCommand } from '../use-cases/submit-lead.js';
