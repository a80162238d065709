/**
 * What search engines and link previews read of a channel page: the description, canonical URL,
 * Open Graph and Twitter card tags (the featured item's poster, else the first card's, as the image),
 * and a schema.org VideoObject in JSON-LD for each video on the page that has a poster, with a
 * CollectionPage listing every item around them. Every URL is absolute, as those readers need.
 */
import type { ItemFacts, PublicChannel, VideoFacts } from '../../../domains/channel/index.ts';
import { itemUrl, posterVideoId } from '../../../domains/channel/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { escapeHtml, scriptJson } from '../http/page-parts.ts';

/** 95 → '1:35', 3725 → '1:02:05': how a card shows a video's length. */
export function clockDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** 95 → 'PT1M35S': an ISO 8601 duration, as schema.org's `duration` takes. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const parts = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || total === 0 ? `${s}S` : ''}`;
  return `PT${parts}`;
}

/** A description for the page: the intro line, or one made from the workspace's name. */
export function channelDescription(channel: PublicChannel): string {
  return channel.dek ?? `Videos from ${channel.workspaceName}.`;
}

/** The items on the page, featured first, each once (the featured item may be in the grid too). */
function pageItems(channel: PublicChannel): ItemFacts[] {
  const all = [channel.featured, ...channel.items].filter((item): item is ItemFacts => item !== null);
  return [...new Map(all.map((item) => [`${item.kind}:${item.id}`, item])).values()];
}

/** The videos described as VideoObjects: those with a poster, since Google requires a thumbnail of each. */
function describedVideos(channel: PublicChannel): VideoFacts[] {
  return pageItems(channel).filter((item): item is VideoFacts => item.kind === 'video' && posterVideoId(item) !== null);
}

function videoObject(video: VideoFacts, links: MediaLinks): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    '@id': links.watchUrl(video.id),
    name: video.title,
    description: video.description.trim() || video.title,
    thumbnailUrl: [links.posterUrl(video.id)],
    uploadDate: video.createdAt.toISOString(),
    ...(video.durationSeconds !== null && { duration: isoDuration(video.durationSeconds) }),
    embedUrl: links.embedUrl(video.id),
    contentUrl: links.playbackUrl(video.id),
    url: links.watchUrl(video.id),
    ...(video.width && video.height && { width: video.width, height: video.height }),
  };
}

/** The tags of the page's <head> after its title: meta, canonical and alternate links, JSON-LD. */
export function channelHeadTags({ channel, slug, links }: { channel: PublicChannel; slug: string; links: MediaLinks }): string {
  const url = links.channelUrl(slug);
  const description = channelDescription(channel);
  const imageSource = [channel.featured, ...channel.items].find((item) => item && posterVideoId(item));
  const image = imageSource ? links.posterUrl(posterVideoId(imageSource) as string) : null;
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  const collection = {
    '@context': 'https://schema.org',
    '@type': 'CollectionPage',
    '@id': url,
    name: channel.title,
    description,
    url,
    publisher: { '@type': 'Organization', name: channel.workspaceName },
    mainEntity: {
      '@type': 'ItemList',
      itemListElement: pageItems(channel).map((item, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: item.title,
        url: itemUrl(links, item),
      })),
    },
  };
  return [
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    `<link rel="alternate" type="text/markdown" href="${escapeHtml(links.channelMarkdownUrl(slug))}" title="${escapeHtml(channel.title)} (Markdown)">`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', channel.workspaceName),
    meta('property', 'og:title', channel.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    ...(image ? [meta('property', 'og:image', image), meta('property', 'og:image:alt', `${channel.title}: poster`)] : []),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', channel.title),
    meta('name', 'twitter:description', description),
    ...(image ? [meta('name', 'twitter:image', image)] : []),
    `<script type="application/ld+json">${scriptJson(collection)}</script>`,
    ...describedVideos(channel).map((video) => `<script type="application/ld+json">${scriptJson(videoObject(video, links))}</script>`),
  ].join('');
}
