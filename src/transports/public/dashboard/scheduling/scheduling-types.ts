/**
 * The shapes of the scheduling operations' answers as the pages read them (docs/scheduling.md). Declared
 * here, not imported from the domain: the dashboard is a client of the catalog like any other.
 */

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Interval {
  start: string;
  end: string;
}

export interface DateOverride {
  date: string;
  hours: Interval[];
}

export interface EventType {
  event_type_id: string;
  name: string;
  duration_minutes: number;
  slot_interval_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  minimum_notice_minutes: number;
  horizon_days: number | null;
  daily_cap: number | null;
  value: { amount: number; currency: string } | null;
  location: string | null;
  time_zone: string;
  weekly_hours: Record<Weekday, Interval[]>;
  date_overrides: DateOverride[];
  active: boolean;
  booking_url: string;
  created_at: string;
  updated_at: string;
}

export interface Pagination {
  total: number;
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

export interface Booking {
  booking_id: string;
  status: 'confirmed' | 'canceled';
  event_type: { event_type_id: string; name: string; location: string | null };
  start: string;
  end: string;
  invitee_timezone: string;
  invitee_start: string;
  invitee_email: string | null;
  invitee_name: string | null;
  invitee_phone: string | null;
  lead_id: string | null;
  value: { amount: string | number; currency: string } | null;
  video_id: string | null;
  route_id: string | null;
  rescheduled_at: string | null;
  canceled_at: string | null;
  canceled_by: 'workspace' | 'invitee' | null;
  cancel_reason: string | null;
  created_at: string;
}

export interface CalendarFeed {
  calendar_feed_id: string;
  name: string;
  url: string;
  last_fetched_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  busy_count: number;
  next_fetch_at: string | null;
  fetching: boolean;
  created_at: string;
}

export interface Reason {
  code: string;
  message: string;
  bookings?: { booking_id: string; event_type: string; start: string; end: string; invitee_name: string | null }[];
  calendars?: { calendar_feed_id: string; name: string }[];
}

export interface OfferedSlot {
  start: string;
  end: string;
  local_start: string;
  local_end: string;
}

export interface NotOfferedRun {
  start: string;
  last_start: string;
  local_start: string;
  local_last_start: string;
  count: number;
  reasons: Reason[];
}

export interface Availability {
  event_type: {
    event_type_id: string;
    name: string;
    active: boolean;
    duration_minutes: number;
    slot_interval_minutes: number;
    time_zone: string;
  };
  timezone: string;
  now: string;
  candidates: number;
  offered_count: number;
  not_offered_count: number;
  reason_counts: Record<string, number>;
  offered: OfferedSlot[];
  not_offered: NotOfferedRun[];
}

export interface OverviewEventType {
  event_type_id: string;
  name: string;
  next_offered: { start: string; local_start: string } | null;
  next_7_days: { offered: number; booked: number; utilization: number | null };
  next_28_days: { offered: number; booked: number; utilization: number | null };
  problems: { code: string; message: string }[];
}

export interface Overview {
  active_event_types: number;
  inactive_event_types: number;
  event_types: OverviewEventType[];
  calendars: CalendarFeed[];
}

/** An operation's 400 names its fields this way (`details.errors`). */
export interface FieldProblem {
  field: string;
  problem: string;
}
