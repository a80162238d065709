/**
 * Lead statuses and the only changes Cuepoint makes on its own (docs/leads-and-outcomes.md,
 * "Statuses"). People set any status at any time; the service only moves a lead forward, never
 * back, and never out of `customer` or `lost`, which are someone's judgement:
 * - `new` → `engaged` once its engagement score reaches ENGAGED_AT_SCORE;
 * - `new` or `engaged` → `qualified` when it books a call;
 * - anything but `customer` → `customer` on its first succeeded purchase (a lost lead who pays is
 *   a customer again).
 */
import type { LeadStatus } from '../../db/tables/index.ts';

export const ENGAGED_AT_SCORE = 30;

export type StatusTrigger = { kind: 'score'; score: number } | { kind: 'booked_call' } | { kind: 'purchase' };

/** The status a trigger moves a lead to, or null when it stays. */
export function automaticStatus(current: LeadStatus, trigger: StatusTrigger): LeadStatus | null {
  switch (trigger.kind) {
    case 'score':
      return current === 'new' && trigger.score >= ENGAGED_AT_SCORE ? 'engaged' : null;
    case 'booked_call':
      return current === 'new' || current === 'engaged' ? 'qualified' : null;
    case 'purchase':
      return current === 'customer' ? null : 'customer';
  }
}

/** Who an automatic change is attributed to in the lead's history. */
export const AUTOMATIC_AUTHOR = 'Cuepoint (automatic)';
