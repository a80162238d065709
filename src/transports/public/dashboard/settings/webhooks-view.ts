/**
 * The Webhooks tab's HTML: the endpoints (list_webhook_endpoints), the form that adds one (name, URL,
 * events as checkboxes), and the form that edits one on its own page.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatDateTime } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';
import { checkboxGroup, formAlert, inputField, type Problems } from './form-fields.ts';
import { ALL_EVENTS } from './webhook-events.ts';

export interface EndpointRow {
  endpoint_id: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface EndpointFormValues {
  name: string;
  url: string;
  events: ReadonlySet<string>;
  active: boolean;
}

export function endpointStatus(endpoint: EndpointRow): string {
  return endpoint.active
    ? '<span class="status succeeded">Active</span>'
    : `<span class="status paused">${endpoint.disabled_reason ? 'Paused by Cuepoint' : 'Paused'}</span>`;
}

function eventsSummary(events: string[]): string {
  if (events.includes(ALL_EVENTS)) return 'All events';
  const shown = events
    .slice(0, 3)
    .map((event) => `<code>${escapeHtml(event)}</code>`)
    .join(' ');
  return events.length > 3 ? `${shown} <span class="muted">+${events.length - 3} more</span>` : shown;
}

export function endpointsTable(endpoints: EndpointRow[], timeZone: string): string {
  if (endpoints.length === 0) {
    return '<p class="empty">No endpoints yet. Add one below and Cuepoint will POST signed events to it as they happen.</p>';
  }
  const rows = endpoints.map(
    (endpoint) =>
      `<tr><td><a href="/app/settings/webhooks/${endpoint.endpoint_id}"><strong>${escapeHtml(endpoint.name)}</strong></a><span class="meta break">${escapeHtml(endpoint.url)}</span></td>` +
      `<td>${eventsSummary(endpoint.events)}</td><td>${endpointStatus(endpoint)}</td><td>${escapeHtml(formatDateTime(endpoint.created_at, timeZone))}</td></tr>`,
  );
  return (
    '<div class="table-scroll"><table class="endpoints"><thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Added</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

export function endpointForm(spec: {
  csrf: string;
  action: string;
  heading: string;
  submit: string;
  values: EndpointFormValues;
  problems: Problems;
  events: string[];
  /** The edit form also pauses and resumes. */
  withActive: boolean;
}): string {
  const { values, problems } = spec;
  return (
    `<section aria-labelledby="endpoint-form-heading" class="card"><h2 id="endpoint-form-heading">${escapeHtml(spec.heading)}</h2>` +
    formAlert(problems) +
    `<form class="stack settings-form" method="post" action="${escapeHtml(spec.action)}" novalidate>${csrfField(spec.csrf)}` +
    inputField({
      id: 'f-endpoint-name',
      name: 'name',
      label: 'Name',
      value: values.name,
      problem: problems.name,
      hint: 'What it is for, such as “CRM sync”.',
      required: true,
      attributes: ' maxlength="100" autocomplete="off"',
    }) +
    inputField({
      id: 'f-endpoint-url',
      name: 'url',
      label: 'URL',
      type: 'url',
      value: values.url,
      problem: problems.url,
      hint: 'An https address on the public internet. Events arrive as signed POST requests (Standard Webhooks).',
      required: true,
      attributes: ' maxlength="2048" autocomplete="off" spellcheck="false" inputmode="url"',
    }) +
    checkboxGroup({
      id: 'f-endpoint-events',
      name: 'events',
      legend: 'Events',
      hint: 'Choose “All events” to receive new event types as they are added.',
      problem: problems.events,
      options: [{ value: ALL_EVENTS, label: 'All events' }, ...spec.events.map((event) => ({ value: event, label: event }))],
      checked: values.events,
    }) +
    (spec.withActive
      ? `<label class="check" for="f-endpoint-active"><input type="checkbox" id="f-endpoint-active" name="active" value="true"${values.active ? ' checked' : ''} aria-describedby="f-endpoint-active-hint">` +
        '<span><strong>Active</strong><span class="hint" id="f-endpoint-active-hint">While paused, events are kept and all sent when it is active again.</span></span></label>'
      : '') +
    `<div class="buttons"><button type="submit" class="primary">${escapeHtml(spec.submit)}</button></div></form></section>`
  );
}
