/**
 * The event types an endpoint can subscribe to, read from the catalog's own description of
 * create_webhook_endpoint (its `events` enum), so the checkboxes are exactly what the API accepts and
 * the dashboard imports nothing from the webhooks domain.
 */
import type { PublicSurfaceDeps } from '../../surface.ts';

export const ALL_EVENTS = '*';

let cached: string[] | undefined;

export function subscribableEvents(deps: PublicSurfaceDeps): string[] {
  if (cached) return cached;
  const input = deps.operations.get('create_webhook_endpoint')?.input as
    | { properties?: { events?: { items?: { enum?: string[] } } } }
    | undefined;
  cached = (input?.properties?.events?.items?.enum ?? []).filter((event) => event !== ALL_EVENTS);
  return cached;
}

/** What the form's checkboxes mean to the API: "All events" wins over any single ones. */
export function eventsFromForm(chosen: string[]): string[] {
  return chosen.includes(ALL_EVENTS) ? [ALL_EVENTS] : chosen;
}
