/**
 * How the leads pages name things for people: statuses, sources, and the shapes of the operations'
 * answers they read (declared here, not imported from the domain: the dashboard is a client of the
 * catalog like any other).
 */
import { escapeHtml } from '../../http/page-parts.ts';

export const LEAD_STATUSES = ['new', 'engaged', 'qualified', 'customer', 'lost'] as const;
export const LEAD_SOURCES = ['video', 'api', 'booking', 'import', 'stripe'] as const;

const STATUS_LABELS: Record<string, string> = {
  new: 'New',
  engaged: 'Engaged',
  qualified: 'Qualified',
  customer: 'Customer',
  lost: 'Lost',
};

const SOURCE_LABELS: Record<string, string> = {
  video: 'Video form',
  api: 'API',
  booking: 'Booking',
  import: 'Import',
  stripe: 'Stripe',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source;
}

/** A lead's status as a coloured pill; the word is always written, colour only repeats it. */
export function statusPill(status: string): string {
  return `<span class="lead-status ${escapeHtml(status)}">${escapeHtml(statusLabel(status))}</span>`;
}

export interface VideoRef {
  video_id: string;
  title: string;
}

/** A lead as list_leads and get_lead answer it (masked while the workspace masks). */
export interface LeadSnapshot {
  lead_id: string;
  email: string;
  name: string | null;
  phone: string | null;
  status: string;
  tags: string[];
  source: string;
  source_video: VideoRef | null;
  custom_fields: Record<string, string | number | boolean | null>;
  engagement_score: number;
  last_activity_at: string;
  created_at: string;
}

export interface Pagination {
  total: number;
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** What get_workspace gives the pages: the time zone they write dates in, masking, Stripe. */
export interface WorkspaceView {
  name: string;
  settings: { timezone: string; mask_pii: boolean; stripe_webhook_configured: boolean; stripe_webhook_url: string };
}
