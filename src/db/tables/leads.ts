/**
 * Leads (who raised a hand), the browsers that belong to them, what happened to them, and the
 * revenue ledger (see migration 0011 and docs/leads-and-outcomes.md).
 */
import type { ColumnType } from 'kysely';
import type { Timestamp } from './column-types.ts';

export type LeadStatus = 'new' | 'engaged' | 'qualified' | 'customer' | 'lost';
export type LeadSource = 'video' | 'api' | 'booking' | 'import' | 'stripe';

export interface LeadsTable {
  id: string;
  workspace_id: string;
  /** As given, trimmed; unique per workspace on lower(email). */
  email: string;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  phone: string | null;
  status: ColumnType<LeadStatus, LeadStatus | undefined, LeadStatus>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  /** String keys, JSON scalar values. */
  custom_fields: ColumnType<Record<string, string | number | boolean | null>, string | undefined, string>;
  source: LeadSource;
  /** The video whose form captured the lead, when a form did. */
  source_video_id: string | null;
  /** Engagement points, decayed to engagement_at (domains/leads/engagement-score.ts). */
  engagement_points: ColumnType<number, number | undefined, number>;
  engagement_at: Timestamp | null;
  /** The same points carried to a fixed epoch: orders leads by engagement now, whatever now is. */
  engagement_rank: ColumnType<number, number | undefined, number>;
  last_activity_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LeadViewersTable {
  workspace_id: string;
  /** The player's viewer id (a random id the browser keeps). */
  viewer_id: string;
  lead_id: string;
  linked_at: Timestamp;
}

export type LeadActivityKind = 'form_submitted' | 'note' | 'status_changed' | 'outcome' | 'booking' | 'route_choice';

export interface LeadActivitiesTable {
  id: string;
  workspace_id: string;
  lead_id: string;
  kind: LeadActivityKind;
  video_id: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  occurred_at: Timestamp;
}

export type OutcomeKind = 'purchase' | 'booked_call' | 'refund';
export type OutcomeStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';
export type OutcomeSource = 'api' | 'stripe' | 'booking';

export interface OutcomesTable {
  id: string;
  workspace_id: string;
  kind: OutcomeKind;
  status: OutcomeStatus;
  /** Integer amount in the currency's minor unit (cents); never negative, a refund's kind says it. */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  lead_id: string | null;
  /** The video the writer named, if any. */
  video_id: string | null;
  first_touch_video_id: string | null;
  last_touch_video_id: string | null;
  refunded_outcome_id: string | null;
  external_id: string | null;
  source: OutcomeSource;
  description: string | null;
  occurred_at: Timestamp;
  created_at: Timestamp;
}
