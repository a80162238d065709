/**
 * What the analytics operations say about interactive routes, from the visits of each route per
 * period (route-activity.queries.ts): the routes section of get_analytics_summary, and the routes
 * whose completion rate moved for list_changes, with a sentence each. Pure; every threshold is named
 * here and in docs/analytics.md. They follow the videos' rate drops (change-digest.ts): enough starts
 * in both periods that one visit more or less is not news, and a move both large in points and
 * large against where the rate was.
 */
import { changePercent, round, shareOf } from '../../../core/values/reported-numbers.ts';
import type { RouteStatus } from '../../../db/tables/index.ts';
import type { RouteActivity } from '../../routes/index.ts';

/** Routes the summary names. */
export const MAX_TOP_ROUTES = 5;
/** A route's completion rate is judged with at least this many starts in both periods … */
export const ROUTE_CHANGE_MIN_STARTS = 20;
/** … and counts as moved when it changed by at least this much (absolute) and this share of its previous value. */
export const ROUTE_CHANGE_MIN_POINTS = 0.05;
export const ROUTE_CHANGE_MIN_SHARE = 0.3;
export const MAX_ROUTE_CHANGES = 5;

interface Numbers {
  starts: number;
  completions: number;
  completion_rate: number;
}

export interface RoutesSection extends Numbers {
  top: (Numbers & { route_id: string; name: string; status: RouteStatus })[];
}

export interface RouteChange {
  route_id: string;
  name: string;
  status: RouteStatus;
  completion_rate: number;
  previous_completion_rate: number;
  change: number;
  change_percent: number | null;
  starts: number;
  previous_starts: number;
  completions: number;
  previous_completions: number;
  description: string;
}

const numbers = (starts: number, completions: number): Numbers => ({
  starts,
  completions,
  completion_rate: shareOf(completions, starts),
});

/** The routes section of one period (`bucket`): every route's visits added up, and the routes started most. */
export function routesSection(activity: readonly RouteActivity[], bucket: number): RoutesSection {
  const rows = activity.filter((row) => row.bucket === bucket);
  const total = (field: 'starts' | 'completions') => rows.reduce((sum, row) => sum + row[field], 0);
  const top = [...rows]
    .sort(
      (a, b) =>
        b.starts - a.starts || b.completions - a.completions || a.name.localeCompare(b.name) || a.route_id.localeCompare(b.route_id),
    )
    .slice(0, MAX_TOP_ROUTES)
    .map((row) => ({ route_id: row.route_id, name: row.name, status: row.status, ...numbers(row.starts, row.completions) }));
  return { ...numbers(total('starts'), total('completions')), top };
}

const pct = (value: number) => `${Math.round(value * 100)}%`;

/** Routes whose completion rate moved between the period before (`previous`) and this one (`current`), largest move first. */
export function findRouteChanges(activity: readonly RouteActivity[], current: number, previous: number): RouteChange[] {
  const routes = new Map<string, { route: RouteActivity; now?: RouteActivity; before?: RouteActivity }>();
  for (const row of activity) {
    if (row.bucket !== current && row.bucket !== previous) continue;
    const entry = routes.get(row.route_id) ?? { route: row };
    entry[row.bucket === current ? 'now' : 'before'] = row;
    routes.set(row.route_id, entry);
  }
  const changes: RouteChange[] = [];
  for (const { route, now, before } of routes.values()) {
    if (!now || !before || now.starts < ROUTE_CHANGE_MIN_STARTS || before.starts < ROUTE_CHANGE_MIN_STARTS) continue;
    const [rate, previousRate] = [shareOf(now.completions, now.starts), shareOf(before.completions, before.starts)];
    // Rounded before comparing, so a move of exactly 5 points or 30% (0.35 − 0.3 in floating point) counts.
    const moved = round(Math.abs(rate - previousRate), 4);
    if (moved < ROUTE_CHANGE_MIN_POINTS || (previousRate > 0 && round(moved / previousRate, 4) < ROUTE_CHANGE_MIN_SHARE)) continue;
    const verb = rate > previousRate ? 'rose' : 'fell';
    changes.push({
      route_id: route.route_id,
      name: route.name,
      status: route.status,
      completion_rate: rate,
      previous_completion_rate: previousRate,
      change: round(rate - previousRate, 4),
      change_percent: changePercent(rate, previousRate),
      starts: now.starts,
      previous_starts: before.starts,
      completions: now.completions,
      previous_completions: before.completions,
      description: `Route “${route.name}”: completion rate ${verb} from ${pct(previousRate)} to ${pct(rate)} (${before.starts} → ${now.starts} starts).`,
    });
  }
  return changes
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.name.localeCompare(b.name) || a.route_id.localeCompare(b.route_id))
    .slice(0, MAX_ROUTE_CHANGES);
}
