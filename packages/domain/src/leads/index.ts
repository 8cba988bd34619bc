/** Leads: a visitor's interest in a vehicle for sale. */
export type { Lead } from './lead.js';
export type { LeadRepository, NewLead } from './lead-repository.port.js';
export { LEAD_FIELD_LIMITS, makeSubmitLead, type SubmitLeadCommand } from './submit-lead.js';
