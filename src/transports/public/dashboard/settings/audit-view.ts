/**
 * The Audit log tab's HTML: the filters (who, action, object, from and to days) as a GET form, the
 * events (list_audit_events) newest first, and the pages by cursor.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatDateTime } from '../kit/formats.ts';
import type { Problems } from './form-fields.ts';

export interface AuditEventRow {
  audit_event_id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string };
  action: string;
  object: { kind: string; id: string } | null;
  origin: { transport: string; address: string | null; user_agent: string | null } | null;
  details: Record<string, string | number | boolean | null>;
}

export interface AuditFilters {
  actor: string;
  action: string;
  object_id: string;
  from: string;
  to: string;
}

export interface ActorChoice {
  id: string;
  label: string;
}

const ACTOR_KINDS: Record<string, string> = {
  user: 'Person',
  api_key: 'API key',
  assistant: 'Assistant',
  cli: 'Command line',
  system: 'Cuepoint',
};
const TRANSPORTS: Record<string, string> = {
  rest: 'API',
  mcp: 'MCP',
  dashboard: 'Dashboard',
  cli: 'Command line',
  public: 'Public page',
  stripe: 'Stripe',
};

/** Objects that have a dashboard page of their own. */
const PAGES: Record<string, string> = {
  video: '/app/videos/',
  lead: '/app/leads/',
  route: '/app/routes/',
  webhook_endpoint: '/app/settings/webhooks/',
};

export function auditFilters(filters: AuditFilters, people: ActorChoice[], keys: ActorChoice[], problems: Problems): string {
  const option = (choice: ActorChoice) =>
    `<option value="${escapeHtml(choice.id)}"${choice.id === filters.actor ? ' selected' : ''}>${escapeHtml(choice.label)}</option>`;
  const known = [...people, ...keys].some((choice) => choice.id === filters.actor);
  const field = (id: string, name: keyof AuditFilters, label: string, type: string, extra = '') => {
    const problem = problems[name];
    return (
      `<label for="${id}">${escapeHtml(label)}<input id="${id}" name="${name}" type="${type}" value="${escapeHtml(filters[name])}"${extra}` +
      `${problem ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>` +
      `${problem ? `<span class="field-error" id="${id}-error">${escapeHtml(problem)}</span>` : ''}</label>`
    );
  };
  return (
    '<form class="filters audit-filters" method="get" action="/app/settings/audit" aria-label="Filter the audit log">' +
    '<label for="f-actor">Who<select id="f-actor" name="actor"><option value="">Anyone</option>' +
    (!known && filters.actor ? `<option value="${escapeHtml(filters.actor)}" selected>${escapeHtml(filters.actor)}</option>` : '') +
    (people.length ? `<optgroup label="People">${people.map(option).join('')}</optgroup>` : '') +
    (keys.length ? `<optgroup label="API keys and assistants">${keys.map(option).join('')}</optgroup>` : '') +
    '</select></label>' +
    field('f-action', 'action', 'Action', 'text', ' placeholder="update_video" spellcheck="false" autocapitalize="none"') +
    field('f-object', 'object_id', 'Object id', 'text', ' spellcheck="false" autocapitalize="none"') +
    field('f-from', 'from', 'From', 'date') +
    field('f-to', 'to', 'To', 'date') +
    '<button type="submit">Filter</button>' +
    (Object.values(filters).some(Boolean) ? '<a class="button" href="/app/settings/audit">Clear</a>' : '') +
    '</form>'
  );
}

export function auditTable(events: AuditEventRow[], timeZone: string, total: number): string {
  if (events.length === 0) return '<p class="empty">No events match. Every change in the workspace is recorded here as it happens.</p>';
  const rows = events.map((event) => {
    const object = event.object
      ? PAGES[event.object.kind]
        ? `<a href="${PAGES[event.object.kind]}${escapeHtml(event.object.id)}">${escapeHtml(event.object.kind.replaceAll('_', ' '))}</a>`
        : escapeHtml(event.object.kind.replaceAll('_', ' '))
      : '<span class="muted">—</span>';
    const objectId = event.object
      ? `<span class="meta mono" title="${escapeHtml(event.object.id)}">${escapeHtml(event.object.id.slice(0, 8))}…</span>`
      : '';
    const origin = event.origin
      ? `${escapeHtml(TRANSPORTS[event.origin.transport] ?? event.origin.transport)}${event.origin.address ? `<span class="meta mono">${escapeHtml(event.origin.address)}</span>` : ''}`
      : '<span class="muted">Cuepoint</span>';
    const kind = ACTOR_KINDS[event.actor.kind] ?? event.actor.kind;
    // The service acting by itself is named "Cuepoint" already: no need to say so twice.
    const actor = `<strong>${escapeHtml(event.actor.name)}</strong>${kind === event.actor.name ? '' : `<span class="meta">${escapeHtml(kind)}</span>`}`;
    return (
      `<tr><td class="nowrap">${escapeHtml(formatDateTime(event.at, timeZone))}</td><td>${actor}</td>` +
      `<td><a href="/app/settings/audit?action=${encodeURIComponent(event.action)}"><code>${escapeHtml(event.action)}</code></a></td>` +
      `<td>${object}${objectId}</td><td>${origin}</td></tr>`
    );
  });
  return (
    `<p class="hint">${formatCount(total)} event${total === 1 ? '' : 's'}, newest first. Times in the workspace’s time zone (${escapeHtml(timeZone)}).</p>` +
    '<div class="table-scroll"><table class="audit"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">From</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}
