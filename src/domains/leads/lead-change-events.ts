/**
 * The one emitter of `lead.created` and `lead.updated`, whichever write changed the lead (upsert_lead,
 * update_lead, rename_tag, a lead form, a booking, a ledger entry, an automatic status change): a new
 * lead is announced once as created, a changed one once as updated with every field that changed, an
 * unchanged one not at all.
 */
import type { Emit } from '../../core/context.ts';
import type { LeadSnapshot } from './leads.events.ts';

export interface LeadChange {
  leadId: string;
  created: boolean;
  /** The fields that changed; ignored for a new lead. Repeats are dropped. */
  changed: readonly string[];
  /** The lead as it is now, or how to read it (read only when there is something to announce). */
  lead: LeadSnapshot | (() => Promise<LeadSnapshot>);
}

export async function emitLeadChange(emit: Emit, change: LeadChange): Promise<void> {
  const changed = [...new Set(change.changed)];
  if (!change.created && changed.length === 0) return;
  const lead = typeof change.lead === 'function' ? await change.lead() : change.lead;
  if (change.created) await emit('lead.created', { lead_id: change.leadId, lead });
  else await emit('lead.updated', { lead_id: change.leadId, changed, lead });
}
