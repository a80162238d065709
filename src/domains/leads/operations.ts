/** The leads domain's operations, in catalog order. */
import { eraseLead } from './operations/erase-lead.ts';
import { getLead } from './operations/get-lead.ts';
import { getLeadJourney } from './operations/get-lead-journey.ts';
import { listLeads } from './operations/list-leads.ts';
import { revealLead } from './operations/reveal-lead.ts';
import { updateLead } from './operations/update-lead.ts';
import { upsertLead } from './operations/upsert-lead.ts';

export const leadOperations = [listLeads, getLead, getLeadJourney, updateLead, upsertLead, revealLead, eraseLead];
