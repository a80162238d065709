/**
 * The HTML of the public channel page (GET /c/{slug}): a header with the headline and intro line,
 * the featured item playing in our own player (the embed page, or the route player), and a grid of
 * cards, each a link to the item's own page. The same state always renders the same bytes (no token
 * or clock in it: the script makes its own view id), so the page can be revalidated by its ETag.
 * Link previews and search engines read the meta tags and JSON-LD (channel-structured-data.ts).
 */
import type { ItemFacts, PublicChannel } from '../../../domains/channel/index.ts';
import { posterVideoId } from '../../../domains/channel/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { escapeHtml, htmlPage, NOTICE_STYLE, securityHeaders } from '../http/page-parts.ts';
import { channelHeadTags, clockDuration } from './channel-structured-data.ts';

// overflow-wrap on the body: a name or title may be one long word, and no line may be wider than a phone.
const CHANNEL_STYLE =
  'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;overflow-wrap:anywhere}' +
  '.skip{position:absolute;left:-9999px;top:8px;padding:8px 12px;background:#2563eb;color:#fff;border-radius:6px;z-index:1}.skip:focus{left:8px}' +
  'header,main,footer{max-width:1120px;margin:0 auto;padding-left:20px;padding-right:20px}header{padding-top:40px}' +
  '.brand{margin:0;font-size:.8rem;font-weight:700;letter-spacing:.06em;text-transform:uppercase;opacity:.65}' +
  'h1{margin:6px 0 0;font-size:clamp(1.7rem,4vw,2.6rem);line-height:1.15}' +
  '.dek{margin:12px 0 0;max-width:46rem;font-size:1.1rem;opacity:.85}main{padding-top:24px;padding-bottom:40px}' +
  '.featured{margin:0 0 44px}.player{position:relative;aspect-ratio:16/9;border-radius:12px;overflow:hidden;background:#000;' +
  'box-shadow:0 10px 30px rgba(0,0,0,.25)}.player iframe{position:absolute;inset:0;width:100%;height:100%;border:0}' +
  '.featured h2{margin:16px 0 4px;font-size:1.35rem}.featured p{margin:0;max-width:46rem;opacity:.8}' +
  '.grid-title{margin:0 0 16px;font-size:1.15rem}.grid{list-style:none;margin:0;padding:0;display:grid;gap:28px 20px;' +
  'grid-template-columns:repeat(auto-fill,minmax(240px,1fr))}.card{display:flex;flex-direction:column;color:inherit;text-decoration:none;border-radius:10px}' +
  '.card:focus-visible{outline:3px solid #2563eb;outline-offset:4px}.thumb{order:-1;position:relative;display:block;aspect-ratio:16/9;' +
  'border-radius:10px;overflow:hidden;background:linear-gradient(135deg,#1e3a8a,#7c3aed)}' +
  '.thumb img{display:block;width:100%;height:100%;object-fit:cover;transition:transform .2s}.card:hover .thumb img{transform:scale(1.04)}' +
  '.thumb.blank::after{content:"";position:absolute;left:50%;top:50%;margin:-18px 0 0 -12px;border-style:solid;' +
  'border-width:18px 0 18px 30px;border-color:transparent transparent transparent rgba(255,255,255,.85)}' +
  '.badge{position:absolute;right:8px;bottom:8px;padding:2px 8px;border-radius:4px;background:rgba(0,0,0,.78);color:#fff;' +
  'font-size:.8rem;font-weight:600}.card h3{margin:10px 0 2px;font-size:1rem;line-height:1.35}' +
  '.card:hover h3{text-decoration:underline}.card p{margin:0;font-size:.9rem;opacity:.72;display:-webkit-box;-webkit-line-clamp:2;' +
  '-webkit-box-orient:vertical;overflow:hidden}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}' +
  // Cards without a poster take one of four colours in turn, so a row of them is not one block of purple.
  '.grid li:nth-child(4n+2) .thumb{background:linear-gradient(135deg,#065f46,#0ea5e9)}' +
  '.grid li:nth-child(4n+3) .thumb{background:linear-gradient(135deg,#9a3412,#f59e0b)}' +
  '.grid li:nth-child(4n+4) .thumb{background:linear-gradient(135deg,#831843,#6366f1)}' +
  '.empty{opacity:.75}footer{padding-bottom:40px;font-size:.85rem;opacity:.7}footer a{color:inherit}' +
  '@media (prefers-reduced-motion:reduce){.thumb img{transition:none}}';

export const CHANNEL_HEADERS = {
  found: securityHeaders('self', CHANNEL_STYLE, { framesOwnPages: true }),
  notice: securityHeaders('self', NOTICE_STYLE),
};

export interface ChannelPageContext {
  channel: PublicChannel;
  slug: string;
  links: MediaLinks;
}

/** Where the item plays on its own, relative to this origin. */
export function itemPath(item: Pick<ItemFacts, 'kind' | 'id'>): string {
  return item.kind === 'video' ? `/watch/${item.id}` : `/r/${item.id}`;
}

function posterImage(item: ItemFacts): string {
  const poster = posterVideoId(item);
  if (!poster) return '';
  // Decorative: the card's heading, right beside it, names the item (alt="" keeps screen readers from saying it twice).
  return `<img src="/media/${poster}/poster.jpg" alt="" width="640" height="360" loading="lazy" decoding="async">`;
}

function badge(item: ItemFacts): string {
  if (item.kind === 'route') return `<span class="badge">Interactive · ${item.steps} ${item.steps === 1 ? 'step' : 'steps'}</span>`;
  if (item.durationSeconds === null) return '';
  return `<span class="badge"><span class="sr">Duration </span>${clockDuration(item.durationSeconds)}</span>`;
}

function card(item: ItemFacts): string {
  const poster = posterImage(item);
  const description =
    item.kind === 'route'
      ? '<p>Interactive: you choose what to watch next.</p>'
      : item.description.trim()
        ? `<p>${escapeHtml(item.description)}</p>`
        : '';
  // The title first in the markup, so a screen reader names the link by it rather than by "Duration 5:12";
  // the style draws the poster above it.
  return (
    `<li><a class="card" href="${itemPath(item)}" data-cuepoint-item data-kind="${item.kind}" data-id="${item.id}">` +
    `<h3>${escapeHtml(item.title)}</h3>${description}` +
    `<span class="thumb${poster ? '' : ' blank'}">${poster}${badge(item)}</span></a></li>`
  );
}

function featuredSection(item: ItemFacts): string {
  const src = item.kind === 'video' ? `/embed/${item.id}` : `/r/${item.id}?frame=1`;
  const what = item.kind === 'video' ? 'Video' : 'Interactive video';
  const description = item.kind === 'video' && item.description.trim() ? `<p>${escapeHtml(item.description)}</p>` : '';
  return (
    `<section class="featured" aria-labelledby="featured-title"><div class="player">` +
    `<iframe src="${src}" title="${what}: ${escapeHtml(item.title)}" allow="autoplay; fullscreen; picture-in-picture; encrypted-media" ` +
    `data-cuepoint-item data-kind="${item.kind}" data-id="${item.id}"></iframe></div>` +
    `<h2 id="featured-title"><span class="sr">Featured: </span>${escapeHtml(item.title)}</h2>${description}</section>`
  );
}

export function channelPage({ channel, slug, links }: ChannelPageContext): string {
  const grid =
    channel.items.length > 0
      ? `<ul class="grid">${channel.items.map(card).join('')}</ul>`
      : '<p class="empty">Nothing to watch here yet. Please come back soon.</p>';
  const body =
    `<a class="skip" href="#videos">Skip to the videos</a>` +
    `<header><p class="brand">${escapeHtml(channel.workspaceName)}</p><h1>${escapeHtml(channel.title)}</h1>` +
    `${channel.dek ? `<p class="dek">${escapeHtml(channel.dek)}</p>` : ''}</header>` +
    `<main data-cuepoint-channel="/c/${slug}/events">${channel.featured ? featuredSection(channel.featured) : ''}` +
    `<section aria-labelledby="videos"><h2 class="grid-title" id="videos" tabindex="-1">All videos</h2>${grid}</section></main>` +
    `<footer><p>${escapeHtml(channel.workspaceName)} · <a href="/c/${slug}.md">Text version</a></p></footer>` +
    `<script src="/player.js" defer></script><script src="/channel.js" defer></script>`;
  return htmlPage(CHANNEL_STYLE, channel.title, body, channelHeadTags({ channel, slug, links }));
}

const notice = (title: string, heading: string, text: string) =>
  htmlPage(NOTICE_STYLE, title, `<main><h1>${heading}</h1><p>${text}</p></main>`);

export const MISSING_CHANNEL_PAGE = notice(
  'Channel not found',
  'There is no channel here',
  'The link may be mistyped, or the channel may have moved to a new address.',
);
export const UNAVAILABLE_CHANNEL_PAGE = notice(
  'Channel temporarily unavailable',
  'This channel is temporarily unavailable',
  'Please try again in a few moments.',
);
