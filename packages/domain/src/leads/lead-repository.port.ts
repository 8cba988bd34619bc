import type { Lead } from './lead.js';

export type NewLead = Omit<Lead, 'id' | 'createdAt'>;

export interface LeadRepository {
  create(input: NewLead): Promise<Lead>;
}
