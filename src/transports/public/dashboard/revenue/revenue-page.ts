/**
 * /app/revenue: the ledger (list_outcomes with its filters: kind, status, video, lead, dates; cursor
 * pages), totals per currency over everything the filters match, revenue by day (get_analytics_daily),
 * attribution of the entries shown, and the Stripe connection (get_workspace). Four calls, in
 * parallel, one per widget (the videos for the filter's list being the fourth). "Record an outcome"
 * and "Refund" lead to the form of record-outcome-page.ts for roles with outcomes:write.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount } from '../kit/formats.ts';
import type { Answer, PageContext } from '../kit/page-route.ts';
import { type FormProblems, fieldError, formAlert, invalidAttributes, problemsOf } from '../leads/form-problems.ts';
import type { VideoRef, WorkspaceView } from '../leads/lead-words.ts';
import { attributionSection } from './attribution.ts';
import { ledgerTable, totalsTiles } from './ledger-table.ts';
import { kindLabel, OUTCOME_KINDS, OUTCOME_STATUSES, type OutcomeList, outcomeStatusLabel } from './outcome-words.ts';
import { chartWindow, type DailyRevenue, revenueChartSection } from './revenue-chart.ts';
import { stripeSection } from './stripe-connection.ts';

const PAGE_SIZE = 50;
const FILTERS = ['kind', 'status', 'video_id', 'lead_id', 'from_date', 'to_date'] as const;

const DONE: Record<string, string> = {
  recorded: 'Outcome recorded.',
  refunded: 'Refund recorded.',
  exists: 'An entry with that reference was already recorded; nothing new was written.',
  'stripe-saved': 'Stripe signing secret saved. Payments will arrive in the ledger.',
  'stripe-removed': 'Stripe disconnected: its deliveries are refused until a secret is saved again.',
};

export function ledgerFilters(query: Record<string, string>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = query[name]?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

function ledgerLink(filters: Record<string, string>, cursor?: string): string {
  const query = new URLSearchParams({ ...filters, ...(cursor ? { cursor } : {}) }).toString();
  return query ? `/app/revenue?${query}` : '/app/revenue';
}

function select(
  name: string,
  label: string,
  values: readonly string[],
  selected: string | undefined,
  words: (v: string) => string,
  any: string,
  problems: FormProblems,
): string {
  const id = `ledger-${name}`;
  return (
    `<div class="field-box"><label for="${id}">${label}</label><select id="${id}" name="${name}"${invalidAttributes(problems, name, id)}><option value="">${escapeHtml(any)}</option>` +
    values.map((v) => `<option value="${escapeHtml(v)}"${v === selected ? ' selected' : ''}>${escapeHtml(words(v))}</option>`).join('') +
    `</select>${fieldError(problems, name, id, label)}</div>`
  );
}

function filterForm(filters: Record<string, string>, listed: VideoRef[], leadName: string | null, problems: FormProblems): string {
  // The list holds the first 100 videos; a video chosen by a link from elsewhere stays chosen.
  const videos =
    filters.video_id && !listed.some((v) => v.video_id === filters.video_id)
      ? [...listed, { video_id: filters.video_id, title: 'The chosen video' }]
      : listed;
  const titles = new Map(videos.map((v) => [v.video_id, v.title]));
  const date = (name: string, label: string) =>
    `<div class="field-box"><label for="ledger-${name}">${label}</label><input id="ledger-${name}" type="date" name="${name}" value="${escapeHtml(filters[name] ?? '')}"${invalidAttributes(
      problems,
      name,
      `ledger-${name}`,
    )}>${fieldError(problems, name, `ledger-${name}`, label)}</div>`;
  const lead = filters.lead_id
    ? `<input type="hidden" name="lead_id" value="${escapeHtml(filters.lead_id)}"><p class="chip">Lead: <a href="/app/leads/${escapeHtml(filters.lead_id)}">${escapeHtml(
        leadName ?? 'this lead',
      )}</a> <a href="${escapeHtml(ledgerLink(Object.fromEntries(Object.entries(filters).filter(([k]) => k !== 'lead_id'))))}" aria-label="Show every lead’s entries">×</a></p>`
    : '';
  return (
    '<form class="filters" method="get" action="/app/revenue" role="search" aria-label="Filter the ledger">' +
    select('kind', 'Kind', OUTCOME_KINDS, filters.kind, kindLabel, 'Any kind', problems) +
    select('status', 'Status', OUTCOME_STATUSES, filters.status, outcomeStatusLabel, 'Any status', problems) +
    select(
      'video_id',
      'Video',
      videos.map((v) => v.video_id),
      filters.video_id,
      (id) => titles.get(id) ?? id,
      'Any video',
      problems,
    ) +
    date('from_date', 'From') +
    date('to_date', 'To') +
    lead +
    '<div class="filter-buttons"><button type="submit" class="primary">Apply</button>' +
    (Object.keys(filters).length ? '<a class="button" href="/app/revenue">Clear</a>' : '') +
    '</div></form>'
  );
}

export async function renderRevenue(ctx: PageContext, stripeProblems: FormProblems = {}, status = 200): Promise<FastifyReply> {
  const filters = ledgerFilters(ctx.query);
  const cursor = ctx.query.cursor?.trim() || undefined;
  const [ledger, daily, videos, workspace] = await Promise.all([
    ctx.call<OutcomeList>('list_outcomes', { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    ctx.may('analytics:read') ? ctx.call<DailyRevenue>('get_analytics_daily', chartWindow(filters)) : undefined,
    ctx.may('videos:read') ? ctx.call<{ videos: VideoRef[] }>('list_videos', { limit: 100 }) : undefined,
    ctx.call<WorkspaceView>('get_workspace', {}),
  ]);
  if (!ledger.ok && ledger.status !== 400 && ledger.status !== 404) return ctx.refused(ledger);
  const timeZone = workspace.ok ? workspace.body.settings.timezone : 'UTC';
  const problems = ledger.ok ? {} : problemsOf(ledger as Answer<unknown> & { ok: false }, [...FILTERS]);
  const mayWrite = ctx.may('outcomes:write');
  const done = DONE[ctx.query.done ?? ''];
  const leadName =
    ledger.ok && filters.lead_id ? (ledger.body.outcomes[0]?.lead?.name ?? ledger.body.outcomes[0]?.lead?.email ?? null) : null;
  const filtered = Object.keys(filters).length > 0;

  let ledgerBody: string;
  if (!ledger.ok) {
    ledgerBody = formAlert(problems) || '<p class="alert" role="alert">Those filters cannot be applied; change the ones marked.</p>';
  } else if (ledger.body.outcomes.length === 0) {
    ledgerBody = filtered
      ? '<div class="empty-state"><p>No entries match these filters.</p><p><a href="/app/revenue">Show the whole ledger</a></p></div>'
      : `<div class="empty-state"><p>No revenue yet.</p><p class="meta">Connect Stripe below, record an outcome by hand, or send them with record_outcome.</p></div>`;
  } else {
    const { pagination } = ledger.body;
    const pages = [
      cursor ? `<a class="button" href="${escapeHtml(ledgerLink(filters))}">First page</a>` : '',
      pagination.has_more && pagination.next_cursor
        ? `<a class="button" rel="next" href="${escapeHtml(ledgerLink(filters, pagination.next_cursor))}">Next page</a>`
        : '',
    ].join('');
    ledgerBody =
      ledgerTable(ledger.body, timeZone, mayWrite) + (pages ? `<nav class="pages" aria-label="Pages of the ledger">${pages}</nav>` : '');
  }
  const count = ledger.ok ? ledger.body.pagination.total : null;
  const content =
    (done ? `<p class="notice" role="status">${escapeHtml(done)}</p>` : '') +
    `<div class="title-row"><h1>Revenue</h1><div class="actions">${mayWrite ? '<a class="button primary" href="/app/revenue/new">Record an outcome</a>' : ''}</div></div>` +
    `<p class="lede">What your videos earned: purchases, booked calls and refunds${
      ledger.ok && ledger.body.pii_redacted ? '. Lead names and addresses are masked in this workspace' : ''
    }.</p>` +
    (ledger.ok ? totalsTiles(ledger.body.totals.by_currency) : '') +
    `<div class="revenue-grid">${revenueChartSection(daily)}${ledger.ok ? attributionSection(ledger.body.outcomes) : ''}</div>` +
    `<section class="revenue-ledger" aria-labelledby="ledger-heading"><div class="section-head"><h2 id="ledger-heading">Ledger</h2>${
      count === null ? '' : `<p class="meta">${formatCount(count)} ${count === 1 ? 'entry' : 'entries'}${filtered ? ' match' : ''}</p>`
    }</div>` +
    filterForm(filters, videos?.ok ? videos.body.videos : [], leadName, problems) +
    ledgerBody +
    '</section>' +
    stripeSection(ctx, workspace.ok ? workspace.body : null, stripeProblems);
  return ctx.page('Revenue', content, { status: ledger.ok ? status : ledger.status });
}
