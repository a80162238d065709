/**
 * The Audit log tab: GET /app/settings/audit, list_audit_events with its filters (actor, action,
 * object_id, a from/to window of the workspace's days) and its cursor. The "Who" choices are the
 * members and keys (list_members, list_api_keys), fetched with the events in one round.
 */
import type { FastifyInstance } from 'fastify';
import { cursorPages } from '../kit/cursor-pages.ts';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import type { ApiKeyRow } from './api-keys-view.ts';
import { type AuditEventRow, type AuditFilters, auditFilters, auditTable } from './audit-view.ts';
import { formAlert, type Problems, problemsOf } from './form-fields.ts';
import type { MemberRow } from './members-view.ts';
import { settingsPage } from './settings-frame.ts';
import { dayStart } from './zoned-day.ts';

const PAGE = '/app/settings/audit';

interface AuditPage {
  audit_events: AuditEventRow[];
  pagination: { total: number; next_cursor: string | null };
}

export function registerAuditSettings(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, PAGE, async (ctx) => {
    const filters: AuditFilters = {
      actor: (ctx.query.actor ?? '').trim(),
      action: (ctx.query.action ?? '').trim(),
      object_id: (ctx.query.object_id ?? '').trim(),
      from: ctx.query.from ?? '',
      to: ctx.query.to ?? '',
    };
    const workspace = await ctx.call<{ settings: { timezone: string } }>('get_workspace', {});
    const timeZone = workspace.ok ? workspace.body.settings.timezone : 'UTC';
    const problems: Problems = {};
    const from = filters.from ? dayStart(filters.from, timeZone) : undefined;
    // "To" is a whole day: events before the next day's start.
    const to = filters.to ? dayStart(filters.to, timeZone, 1) : undefined;
    if (filters.from && !from) problems.from = 'Enter a day, such as 2026-11-03.';
    if (filters.to && !to) problems.to = 'Enter a day, such as 2026-11-30.';
    if (from && to && from >= to) problems.to = 'Choose a day on or after From.';
    const input = {
      limit: 50,
      ...(filters.actor && { actor: filters.actor }),
      ...(filters.action && { action: filters.action }),
      ...(filters.object_id && { object_id: filters.object_id }),
      ...(from && { from }),
      ...(to && !problems.to && { to }),
      ...(ctx.query.cursor && { cursor: ctx.query.cursor }),
    };
    const [events, members, keys] = await Promise.all([
      Object.keys(problems).length ? undefined : ctx.call<AuditPage>('list_audit_events', input),
      ctx.call<{ members: MemberRow[] }>('list_members', {}),
      ctx.call<{ api_keys: ApiKeyRow[] }>('list_api_keys', { limit: 100 }),
    ]);
    if (events && !events.ok) {
      if (events.status !== 400) return ctx.refused(events);
      Object.assign(problems, problemsOf(events, ['action', 'object_id', 'from', 'to']));
    }
    const people = members.ok
      ? members.body.members.filter((m) => m.user_id).map((m) => ({ id: m.user_id as string, label: m.name ?? m.email }))
      : [];
    const credentials = keys.ok ? keys.body.api_keys.map((k) => ({ id: k.key_id, label: `${k.name} (${k.prefix}…)` })) : [];
    const listed = events?.ok ? events.body : undefined;
    const keep = Object.fromEntries(Object.entries(filters).filter(([, value]) => value));
    const pages = cursorPages({
      path: PAGE,
      keep,
      paged: Boolean(ctx.query.cursor),
      next: listed?.pagination.next_cursor,
      label: 'Audit log pages',
      older: 'Older events',
    });
    const content =
      '<section aria-labelledby="audit-heading" class="card"><h2 id="audit-heading">Audit log</h2>' +
      '<p class="hint">Every change through the API, MCP, the dashboard and the command line, with who made it and from where. Events never hold a lead’s email, name or phone.</p>' +
      auditFilters(filters, people, credentials, problems) +
      formAlert(problems) +
      (listed ? auditTable(listed.audit_events, timeZone, listed.pagination.total) : '') +
      pages +
      '</section>';
    return settingsPage(ctx, 'audit', 'Audit log', content, { status: Object.keys(problems).length ? 400 : 200 });
  });
}
