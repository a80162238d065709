/** The route shapes the pages read, as get_route and list_routes answer them (declared here: pages import no domain code). */

export type RouteStatus = 'draft' | 'live' | 'paused' | 'archived';
export type ChoiceTarget = 'step' | 'url' | 'lead_form' | 'booking' | 'end';

export interface RouteChoice {
  choice_id: string;
  label: string;
  target: ChoiceTarget;
  to_step_id: string | null;
  url: string | null;
  event_type_id: string | null;
  booking_url: string | null;
  chosen: number;
  share: number;
}

export interface RouteStep {
  step_id: string;
  entry: boolean;
  video: { video_id: string; title: string; available: boolean };
  question: string | null;
  ask_at_second: number | null;
  choices: RouteChoice[];
  reached: number;
  finished: number;
  dropped_off: number;
}

export interface RouteProblem {
  code: string;
  step_id: string | null;
  message: string;
}

export interface RoutePath {
  step_ids: string[];
  choices: string[];
  visits: number;
  completed: number;
}

export interface RouteSummary {
  route_id: string;
  name: string;
  status: RouteStatus;
  url: string;
  entry_video: { video_id: string; title: string };
  step_count: number;
  starts: number;
  completions: number;
  completion_rate: number;
  created_at: string;
  updated_at: string;
}

export interface RouteDetail extends RouteSummary {
  entry_step_id: string;
  steps: RouteStep[];
  problems: RouteProblem[];
  paths: RoutePath[];
}

/** A video a step may play, as list_videos answers it. */
export interface VideoOption {
  video_id: string;
  title: string;
  status: string;
}

/** An event type a booking choice may open, as list_event_types answers it. */
export interface EventTypeOption {
  event_type_id: string;
  name: string;
  active: boolean;
}

/** Steps are numbered as the API's problems name them: 1 for the entry step, in the order added. */
export function stepNumbers(route: RouteDetail): Map<string, number> {
  return new Map(route.steps.map((step, index) => [step.step_id, index + 1]));
}
