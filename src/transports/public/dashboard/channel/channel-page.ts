/**
 * /app/channel: the public channel as get_channel reports it, with a live preview of the page itself
 * (an iframe of our own /c/{slug}, reloaded with the page after each save). People who may write the
 * channel edit its headline and dek (update_channel), pick the featured item (set_channel_featured),
 * and put videos and routes on it, show, hide and order them (set_channel_item). Everyone else reads.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock, formatCount } from '../kit/formats.ts';
import { csrfField, type PageContext } from '../kit/page-route.ts';
import { type FieldProblems, fieldProblem, invalidAttributes, otherProblems } from '../routes/field-problems.ts';
import { type ChannelDetail, type ChannelItem, NOT_SHOWN } from './channel-types.ts';

interface Candidate {
  kind: 'video' | 'route';
  id: string;
  title: string;
}

const NOTICES: Record<string, string> = {
  heading: 'The heading is saved.',
  featured: 'The featured item is saved.',
  added: 'It is on the channel.',
  shown: 'It shows on the channel.',
  hidden: 'It is hidden from the channel.',
  moved: 'The order is saved.',
};

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function activity(channel: ChannelDetail): string {
  const tile = (label: string, value: number) =>
    `<div class="tile"><p class="label">${label}</p><p class="value">${formatCount(value)}</p></div>`;
  return (
    '<div class="tiles two-up">' +
    tile(`Page views, ${channel.activity.days} days`, channel.activity.views) +
    tile('Visitors', channel.activity.visitors) +
    tile('Items opened', channel.activity.opens) +
    tile('Items showing', channel.showing.length) +
    '</div>'
  );
}

function headingForm(ctx: PageContext, channel: ChannelDetail, problems: FieldProblems, canWrite: boolean): string {
  if (!canWrite) {
    return `<section aria-labelledby="heading-heading"><h2 id="heading-heading">Heading</h2><dl><dt>Headline</dt><dd>${escapeHtml(channel.title)}</dd><dt>Dek</dt><dd>${escapeHtml(channel.dek ?? '—')}</dd></dl></section>`;
  }
  const headline = ctx.form.headline ?? channel.headline ?? '';
  const dek = ctx.form.dek ?? channel.dek ?? '';
  return (
    '<section aria-labelledby="heading-heading"><h2 id="heading-heading">Heading</h2>' +
    `<form class="stack" method="post" action="/app/channel/heading">${csrfField(ctx.csrf)}` +
    `<label class="field" for="channel-headline">Headline <span class="hint">Up to 120 characters; empty shows the workspace’s name</span>` +
    `<input type="text" id="channel-headline" name="headline" maxlength="120" value="${escapeHtml(headline)}"${invalidAttributes(problems, 'headline', 'headline-error')}>` +
    `${fieldProblem(problems, 'headline', 'headline-error')}</label>` +
    `<label class="field" for="channel-dek">Dek <span class="hint">The line under the headline, up to 300 characters</span>` +
    `<textarea id="channel-dek" name="dek" rows="2" maxlength="300"${invalidAttributes(problems, 'dek', 'dek-error')}>${escapeHtml(dek)}</textarea>` +
    `${fieldProblem(problems, 'dek', 'dek-error')}</label>` +
    '<button type="submit" class="primary">Save heading</button></form></section>'
  );
}

function featuredForm(
  ctx: PageContext,
  channel: ChannelDetail,
  candidates: Candidate[],
  problems: FieldProblems,
  canWrite: boolean,
): string {
  const current = channel.featured ? `${channel.featured.kind}:${channel.featured.id}` : '';
  const state = channel.featured
    ? channel.featured.shown
      ? `<p>Now: <strong>${escapeHtml(channel.featured.title)}</strong> plays at the top of the page.</p>`
      : `<p>Now: <strong>${escapeHtml(channel.featured.title)}</strong>, <span class="status paused">${escapeHtml(NOT_SHOWN[channel.featured.not_shown_reason ?? ''] ?? 'not shown')}</span></p>`
    : '<p>Nothing is featured: the page opens with its grid.</p>';
  if (!canWrite) return `<section aria-labelledby="featured-heading"><h2 id="featured-heading">Featured</h2>${state}</section>`;
  // The featured item may be any video or route, on the grid or not; the current one stays listed even if it is no candidate now.
  const options = [...candidates];
  if (channel.featured && !options.some((c) => `${c.kind}:${c.id}` === current))
    options.unshift({ kind: channel.featured.kind, id: channel.featured.id, title: channel.featured.title });
  const group = (kind: 'video' | 'route', label: string) => {
    const list = options.filter((c) => c.kind === kind);
    return list.length === 0
      ? ''
      : `<optgroup label="${label}">${list.map((c) => `<option value="${c.kind}:${escapeHtml(c.id)}"${`${c.kind}:${c.id}` === current ? ' selected' : ''}>${escapeHtml(c.title)}</option>`).join('')}</optgroup>`;
  };
  return (
    '<section aria-labelledby="featured-heading"><h2 id="featured-heading">Featured</h2>' +
    state +
    `<form class="stack" method="post" action="/app/channel/featured">${csrfField(ctx.csrf)}` +
    `<label class="field" for="channel-featured">Featured item<select id="channel-featured" name="featured"${invalidAttributes(problems, 'featured', 'featured-error')}>` +
    `<option value="">None</option>${group('video', 'Videos')}${group('route', 'Routes')}</select>${fieldProblem(problems, 'featured', 'featured-error')}</label>` +
    '<button type="submit">Save featured</button></form></section>'
  );
}

function itemForm(
  ctx: PageContext,
  item: ChannelItem,
  fields: Record<string, string>,
  label: string,
  accessibleName: string,
  primary = false,
): string {
  return (
    `<form class="inline" method="post" action="/app/channel/items">${csrfField(ctx.csrf)}` +
    `<input type="hidden" name="kind" value="${item.kind}"><input type="hidden" name="id" value="${escapeHtml(item.id)}">` +
    Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
      .join('') +
    `<button type="submit"${primary ? ' class="primary"' : ''} aria-label="${escapeHtml(accessibleName)}">${label}</button></form>`
  );
}

function itemsTable(ctx: PageContext, channel: ChannelDetail, canWrite: boolean): string {
  if (channel.items.length === 0)
    return '<p class="empty">Nothing is on the channel yet: a new video does not appear by itself. Add one below.</p>';
  const rows = channel.items
    .map((item, index) => {
      const length =
        item.kind === 'video' ? (item.duration_seconds === null ? '' : formatClock(item.duration_seconds)) : `${item.steps ?? 0} steps`;
      const state = item.shown
        ? '<span class="status live">Shown</span>'
        : `<span class="status ${item.not_shown_reason === 'hidden' ? 'draft' : 'failed'}">${escapeHtml(NOT_SHOWN[item.not_shown_reason ?? ''] ?? 'Not shown')}</span>`;
      const controls = canWrite
        ? '<td class="item-controls">' +
          (item.visible
            ? itemForm(ctx, item, { visible: 'false' }, 'Hide', `Hide ${item.title}`)
            : itemForm(ctx, item, { visible: 'true' }, 'Show', `Show ${item.title}`)) +
          (index > 0
            ? itemForm(
                ctx,
                item,
                { visible: String(item.visible), position: String(item.position - 1), done: 'moved' },
                '↑',
                `Move ${item.title} up`,
              )
            : '') +
          (index < channel.items.length - 1
            ? itemForm(
                ctx,
                item,
                { visible: String(item.visible), position: String(item.position + 1), done: 'moved' },
                '↓',
                `Move ${item.title} down`,
              )
            : '') +
          '</td>'
        : '';
      return (
        `<tr><th scope="row"><a href="${escapeHtml(item.url)}">${escapeHtml(item.title)}</a><span class="meta row-meta">${item.kind === 'video' ? 'Video' : 'Route'}${length ? ` · ${length}` : ''}</span></th>` +
        `<td>${state}</td><td class="number">${formatCount(item.opens)}</td>${controls}</tr>`
      );
    })
    .join('');
  return (
    '<div class="table-scroll" role="region" tabindex="0" aria-label="Items on the channel (scrolls sideways)"><table class="channel-items"><caption class="visually-hidden">Items on the channel, in grid order</caption><thead><tr>' +
    `<th scope="col">Item</th><th scope="col">On the page</th><th scope="col" class="number">Opens, 30 days</th>${canWrite ? '<th scope="col">Change</th>' : ''}</tr></thead>` +
    `<tbody>${rows}</tbody></table></div>`
  );
}

function addForm(ctx: PageContext, channel: ChannelDetail, candidates: Candidate[], problems: FieldProblems): string {
  const placed = new Set(channel.items.map((item) => `${item.kind}:${item.id}`));
  const open = candidates.filter((c) => !placed.has(`${c.kind}:${c.id}`));
  if (open.length === 0) return '<p class="hint">Every ready video and route is on the channel.</p>';
  const group = (kind: 'video' | 'route', label: string) => {
    const list = open.filter((c) => c.kind === kind);
    return list.length === 0
      ? ''
      : `<optgroup label="${label}">${list.map((c) => `<option value="${c.kind}:${escapeHtml(c.id)}">${escapeHtml(c.title)}</option>`).join('')}</optgroup>`;
  };
  return (
    `<form class="add-item" method="post" action="/app/channel/items">${csrfField(ctx.csrf)}<input type="hidden" name="visible" value="true"><input type="hidden" name="done" value="added">` +
    `<label class="field" for="channel-add">Add to the channel<select id="channel-add" name="item" required${invalidAttributes(problems, 'item', 'add-error')}>` +
    `<option value="">Choose a video or route</option>${group('video', 'Videos')}${group('route', 'Routes')}</select>${fieldProblem(problems, 'item', 'add-error')}</label>` +
    '<button type="submit">Add</button></form>'
  );
}

function preview(channel: ChannelDetail): string {
  const body = channel.published
    ? `<iframe class="channel-preview" src="${escapeHtml(pathOf(channel.url))}" title="Preview of your public channel page" loading="lazy"></iframe>`
    : '<p class="empty">The page is not public yet: it goes up with the first change you save here.</p>';
  return (
    '<section aria-labelledby="preview-heading" class="preview-panel"><div class="preview-head"><h2 id="preview-heading">Live preview</h2>' +
    (channel.published
      ? `<a href="${escapeHtml(channel.url)}" target="_blank" rel="noopener">Open the page<span class="visually-hidden"> (new tab)</span></a>`
      : '') +
    `</div>${body}<p class="hint">The preview reloads after each save. The text version for assistants: <a href="${escapeHtml(channel.markdown_url)}">${escapeHtml(pathOf(channel.markdown_url))}</a></p></section>`
  );
}

export async function channelPage(ctx: PageContext, problems: FieldProblems = new Map(), status = 200) {
  const canWrite = ctx.may('channel:write');
  const [answer, videos, routes] = await Promise.all([
    ctx.call<ChannelDetail>('get_channel', {}),
    canWrite
      ? ctx.call<{ videos: { video_id: string; title: string }[] }>('list_videos', { status: 'ready', sort: 'title', limit: 100 })
      : undefined,
    canWrite && ctx.may('routes:read')
      ? ctx.call<{ routes: { route_id: string; name: string }[] }>('list_routes', { limit: 100 })
      : undefined,
  ]);
  if (!answer.ok) return ctx.refused(answer);
  const channel = answer.body;
  const candidates: Candidate[] = [
    ...(videos?.ok ? videos.body.videos.map((v) => ({ kind: 'video' as const, id: v.video_id, title: v.title })) : []),
    // A plan without routes answers 403 here: then there are simply no routes to offer.
    ...(routes?.ok ? routes.body.routes.map((r) => ({ kind: 'route' as const, id: r.route_id, title: r.name })) : []),
  ];
  const notice = NOTICES[ctx.query.done ?? ''];
  const content =
    (notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '') +
    otherProblems(problems, (field) => ['headline', 'dek', 'featured', 'item'].includes(field)) +
    '<div class="title-row"><div><h1>Channel</h1>' +
    `<p class="lede">Your public page at <a href="${escapeHtml(channel.url)}">${escapeHtml(pathOf(channel.url))}</a>: a headline, a featured player and the videos and routes you put on it.</p></div></div>` +
    activity(channel) +
    '<div class="channel-layout"><div class="channel-edit">' +
    headingForm(ctx, channel, problems, canWrite) +
    featuredForm(ctx, channel, candidates, problems, canWrite) +
    `</div>${preview(channel)}</div>` +
    `<section aria-labelledby="items-heading" class="channel-items-panel"><h2 id="items-heading">On the page</h2>` +
    '<p class="hint">In grid order. An item stays listed while it cannot play (an archived video, a paused route) and returns to its place when it can.</p>' +
    `${itemsTable(ctx, channel, canWrite)}${canWrite ? addForm(ctx, channel, candidates, problems) : ''}</section>`;
  return ctx.page('Channel', content, { status });
}
