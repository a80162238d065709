/**
 * Interactive routes: the graph (routes, steps, choices) and what viewers did in it (visits and the
 * steps each reached). See migration 0016 and docs/routes.md.
 */
import type { ColumnType } from 'kysely';
import type { Timestamp } from './column-types.ts';

export type RouteStatus = 'draft' | 'live' | 'paused' | 'archived';
/** `booking` opens an event type's booking page (migration 0018). */
export type ChoiceTarget = 'step' | 'url' | 'lead_form' | 'booking' | 'end';
/**
 * How a visit ended: an `end` choice, the lead form sent, the last step (one without choices) played out, or a link
 * followed (`url`: an https link, or a `booking` choice's booking page; either leaves the route without completing it).
 */
export type VisitEnding = 'end' | 'lead_form' | 'last_step' | 'url';

export interface RoutesTable {
  id: string;
  workspace_id: string;
  name: string;
  status: ColumnType<RouteStatus, RouteStatus | undefined, RouteStatus>;
  /** Kept by the recording of visits (migration 0017): visits that played the entry step, and that completed. */
  starts: ColumnType<number, number | undefined, number>;
  completions: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RouteStepsTable {
  id: string;
  workspace_id: string;
  route_id: string;
  video_id: string;
  /** Order of addition; 0 is the entry step. */
  position: number;
  question: string | null;
  /** When the question shows; null: when the video ends. */
  ask_at_seconds: number | null;
  created_at: Timestamp;
}

export interface RouteChoicesTable {
  id: string;
  workspace_id: string;
  route_id: string;
  step_id: string;
  position: number;
  label: string;
  target: ChoiceTarget;
  to_step_id: string | null;
  url: string | null;
  /** The event type whose booking page a `booking` choice opens (migration 0018). */
  event_type_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set when re-wiring dropped the choice; kept for the choices viewers made. */
  retired_at: Timestamp | null;
}

export interface RouteVisitsTable {
  id: string;
  workspace_id: string;
  route_id: string;
  viewer_id: string;
  lead_id: string | null;
  started_at: Timestamp;
  last_at: Timestamp;
  steps_reached: ColumnType<number, number | undefined, number>;
  ended_by: VisitEnding | null;
  /** Set when the visit reached an end: an `end` choice, the lead form sent, or a last step played out. */
  completed_at: Timestamp | null;
}

export interface RouteVisitStepsTable {
  visit_id: string;
  position: number;
  workspace_id: string;
  route_id: string;
  step_id: string;
  reached_at: Timestamp;
  choice_id: string | null;
  /** The label as it was chosen, so a choice re-wired away still reads right. */
  choice_label: string | null;
  chosen_at: Timestamp | null;
}

/** The route numbers kept as visits happen (migration 0017, domains/routes/analytics/route-counters.ts). */
export interface RouteStepCountsTable {
  step_id: string;
  workspace_id: string;
  route_id: string;
  reached: number;
  finished: number;
  dropped_off: number;
}

export interface RouteChoiceCountsTable {
  choice_id: string;
  workspace_id: string;
  route_id: string;
  chosen: number;
}

export interface RoutePathCountsTable {
  route_id: string;
  /** The step ids in order and the labels chosen: what makes two visits' paths the same. */
  path_key: string;
  workspace_id: string;
  step_ids: string[];
  choices: string[];
  visits: number;
  completed: number;
}
