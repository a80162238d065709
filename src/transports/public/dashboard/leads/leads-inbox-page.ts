/**
 * /app/leads: the inbox. list_leads with every filter and sort it takes (status, source, the video
 * they watched, capture dates, a search), as a GET form so a filtered inbox is a link; cursor pages.
 * Names and addresses are as the operation answers them: masked while the workspace masks (the page
 * never unmasks; an owner reveals one lead on its page). Three calls, in parallel: the leads, the
 * videos for the video filter, the workspace for its time zone.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { shareBar } from '../kit/charts.ts';
import { formatCount, formatDate } from '../kit/formats.ts';
import { type Answer, type DashboardEnv, dashboardGet, type PageContext } from '../kit/page-route.ts';
import { type FormProblems, fieldError, formAlert, invalidAttributes, problemsOf } from './form-problems.ts';
import {
  LEAD_SOURCES,
  LEAD_STATUSES,
  type LeadSnapshot,
  type Pagination,
  sourceLabel,
  statusLabel,
  statusPill,
  type VideoRef,
  type WorkspaceView,
} from './lead-words.ts';

const PAGE_SIZE = 25;
const FILTERS = ['status', 'source', 'video_id', 'from_date', 'to_date', 'search', 'sort'] as const;
const SORTS: Record<string, string> = { engagement: 'Most engaged', newest: 'Newest', oldest: 'Oldest' };

interface LeadList {
  leads: LeadSnapshot[];
  pagination: Pagination;
  pii_redacted: boolean;
}

/** The filters a person set, as the operation takes them (empty fields left out). */
export function inboxFilters(query: Record<string, string>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = query[name]?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

function inboxLink(filters: Record<string, string>, cursor?: string): string {
  const query = new URLSearchParams({ ...filters, ...(cursor ? { cursor } : {}) }).toString();
  return query ? `/app/leads?${query}` : '/app/leads';
}

function options(values: readonly string[], selected: string | undefined, label: (value: string) => string, any: string): string {
  return (
    `<option value="">${escapeHtml(any)}</option>` +
    values.map((v) => `<option value="${escapeHtml(v)}"${v === selected ? ' selected' : ''}>${escapeHtml(label(v))}</option>`).join('')
  );
}

function filterForm(filters: Record<string, string>, listed: VideoRef[], problems: FormProblems): string {
  // The list holds the first 100 videos; a video chosen by a link from elsewhere stays chosen.
  const videos =
    filters.video_id && !listed.some((v) => v.video_id === filters.video_id)
      ? [...listed, { video_id: filters.video_id, title: 'The chosen video' }]
      : listed;
  const videoTitles = new Map(videos.map((v) => [v.video_id, v.title]));
  const input = (name: string, label: string, type: string, extra = '') =>
    `<div class="field-box"><label for="leads-${name}">${label}</label><input id="leads-${name}" type="${type}" name="${name}" value="${escapeHtml(filters[name] ?? '')}"${extra}${invalidAttributes(problems, name, `leads-${name}`)}>${fieldError(problems, name, `leads-${name}`, label)}</div>`;
  return (
    '<form class="filters leads-filters" method="get" action="/app/leads" role="search" aria-label="Filter leads">' +
    input('search', 'Search', 'search', ' placeholder="Name, email or note" maxlength="200"') +
    `<div class="field-box"><label for="leads-status">Status</label><select id="leads-status" name="status">${options(LEAD_STATUSES, filters.status, statusLabel, 'Any status')}</select></div>` +
    `<div class="field-box"><label for="leads-source">Source</label><select id="leads-source" name="source">${options(LEAD_SOURCES, filters.source, sourceLabel, 'Any source')}</select></div>` +
    `<div class="field-box"><label for="leads-video">Video</label><select id="leads-video" name="video_id"${invalidAttributes(problems, 'video_id', 'leads-video')}>${options(
      videos.map((v) => v.video_id),
      filters.video_id,
      (id) => videoTitles.get(id) ?? id,
      'Any video',
    )}</select>${fieldError(problems, 'video_id', 'leads-video', 'Video')}</div>` +
    input('from_date', 'Captured from', 'date') +
    input('to_date', 'Captured to', 'date') +
    `<div class="field-box"><label for="leads-sort">Sort</label><select id="leads-sort" name="sort">${Object.entries(SORTS)
      .map(([value, label]) => `<option value="${value}"${(filters.sort ?? 'engagement') === value ? ' selected' : ''}>${label}</option>`)
      .join('')}</select></div>` +
    '<div class="filter-buttons"><button type="submit" class="primary">Apply</button>' +
    (Object.keys(filters).length > 0 ? '<a class="button" href="/app/leads">Clear</a>' : '') +
    '</div></form>'
  );
}

function leadRow(lead: LeadSnapshot, timeZone: string): string {
  const who = lead.name
    ? `<a class="lead-name" href="/app/leads/${escapeHtml(lead.lead_id)}">${escapeHtml(lead.name)}</a><span class="meta">${escapeHtml(lead.email)}</span>`
    : `<a class="lead-name" href="/app/leads/${escapeHtml(lead.lead_id)}">${escapeHtml(lead.email)}</a>`;
  const tags = lead.tags.length
    ? `<ul class="tag-list">${lead.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`
    : '<span class="meta">—</span>';
  const source = lead.source_video ? `${sourceLabel(lead.source)}: ${lead.source_video.title}` : sourceLabel(lead.source);
  return (
    `<tr><th scope="row"><div class="lead-who">${who}</div></th>` +
    `<td class="lead-state">${statusPill(lead.status)}</td>` +
    `<td data-label="Engagement">${shareBar(lead.engagement_score / 100, String(lead.engagement_score))}</td>` +
    `<td class="lead-source" data-label="Source">${escapeHtml(source)}</td><td data-label="Tags"${lead.tags.length ? '' : ' class="no-tags"'}>${tags}</td>` +
    `<td data-label="Captured"><time datetime="${escapeHtml(lead.created_at)}">${escapeHtml(formatDate(lead.created_at, timeZone))}</time></td>` +
    `<td data-label="Last activity"><time datetime="${escapeHtml(lead.last_activity_at)}">${escapeHtml(formatDate(lead.last_activity_at, timeZone))}</time></td></tr>`
  );
}

function leadTable(list: LeadList, timeZone: string): string {
  return (
    '<div class="table-scroll"><table class="leads-table"><caption class="visually-hidden">Leads</caption><thead><tr>' +
    '<th scope="col">Lead</th><th scope="col">Status</th><th scope="col">Engagement</th><th scope="col">Source</th>' +
    '<th scope="col">Tags</th><th scope="col">Captured</th><th scope="col">Last activity</th></tr></thead><tbody>' +
    list.leads.map((lead) => leadRow(lead, timeZone)).join('') +
    '</tbody></table></div>'
  );
}

function pages(list: LeadList, filters: Record<string, string>, onLaterPage: boolean): string {
  const links = [
    onLaterPage ? `<a class="button" href="${escapeHtml(inboxLink(filters))}">First page</a>` : '',
    list.pagination.has_more && list.pagination.next_cursor
      ? `<a class="button" rel="next" href="${escapeHtml(inboxLink(filters, list.pagination.next_cursor))}">Next page</a>`
      : '',
  ].join('');
  return links ? `<nav class="pages" aria-label="Pages of leads">${links}</nav>` : '';
}

async function inboxPage(ctx: PageContext): Promise<import('fastify').FastifyReply> {
  const filters = inboxFilters(ctx.query);
  const cursor = ctx.query.cursor?.trim() || undefined;
  const [leads, videos, workspace] = await Promise.all([
    ctx.call<LeadList>('list_leads', { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    ctx.may('videos:read') ? ctx.call<{ videos: VideoRef[] }>('list_videos', { limit: 100 }) : undefined,
    ctx.call<WorkspaceView>('get_workspace', {}),
  ]);
  if (!leads.ok && leads.status !== 400 && leads.status !== 404) return ctx.refused(leads);
  const timeZone = workspace.ok ? workspace.body.settings.timezone : 'UTC';
  const videoList = videos?.ok ? videos.body.videos : [];
  const problems = leads.ok ? {} : problemsOf(leads as Answer<unknown> & { ok: false }, [...FILTERS]);
  const filtered = Object.keys(filters).some((name) => name !== 'sort');
  let body: string;
  if (!leads.ok) {
    body = formAlert(problems) || '<p class="alert" role="alert">Those filters cannot be applied; change the ones marked.</p>';
  } else if (leads.body.leads.length === 0) {
    body = filtered
      ? '<div class="empty-state"><p>No leads match these filters.</p><p><a href="/app/leads">Show every lead</a></p></div>'
      : '<div class="empty-state"><p>No leads yet.</p><p class="meta">They arrive from your videos’ forms, bookings, Stripe payments and the API (upsert_lead).</p></div>';
  } else {
    body = leadTable(leads.body, timeZone) + pages(leads.body, filters, Boolean(cursor));
  }
  const total = leads.ok ? leads.body.pagination.total : null;
  const summary =
    total === null
      ? ''
      : `<p class="lede">${formatCount(total)} ${total === 1 ? 'lead' : 'leads'}${filtered ? ' match' : ''}${
          leads.ok && leads.body.pii_redacted
            ? '. Names and addresses are masked in this workspace; owners and admins can reveal one on its page.'
            : '.'
        }</p>`;
  const content =
    `<div class="title-row"><h1>Leads</h1></div>${summary}` +
    `<section class="leads-inbox" aria-labelledby="leads-list-heading"><h2 id="leads-list-heading" class="visually-hidden">The leads</h2>${filterForm(filters, videoList, problems)}${body}</section>`;
  return ctx.page('Leads', content, { status: leads.ok ? 200 : leads.status });
}

export function registerLeadsInbox(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/leads', inboxPage);
}
