/**
 * The channel as Markdown (GET /c/{slug}.md and /c/{slug}/llms.txt), for AI assistants and crawlers
 * that read text rather than pages. It follows the llms.txt layout: a title, a one-line summary as a
 * quote, then sections of links, each with what it is. Text from the workspace is escaped so it
 * reads as text and cannot add links, headings or HTML of its own.
 */
import type { ItemFacts, PublicChannel } from '../../../domains/channel/index.ts';
import { itemUrl } from '../../../domains/channel/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { channelDescription, clockDuration } from './channel-structured-data.ts';

/** One line of plain text: line breaks become spaces, and characters Markdown or HTML would act on are escaped. */
function text(value: string): string {
  return value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]()<>#!|~]/g, (c) => `\\${c}`);
}

function entry(item: ItemFacts, links: MediaLinks): string {
  const about =
    item.kind === 'video'
      ? [item.durationSeconds !== null ? `video, ${clockDuration(item.durationSeconds)}` : 'video', item.description.trim()]
      : [`interactive video route, ${item.steps} ${item.steps === 1 ? 'step' : 'steps'}: viewers choose where to go next`];
  const details = about.filter(Boolean).map(text).join('. ');
  return `- [${text(item.title)}](${itemUrl(links, item)}): ${details}`;
}

export function channelMarkdown(channel: PublicChannel, slug: string, links: MediaLinks): string {
  const videos = channel.items.filter((item) => item.kind === 'video');
  const routes = channel.items.filter((item) => item.kind === 'route');
  const sections = [
    `# ${text(channel.title)}`,
    `> ${text(channelDescription(channel))}`,
    `The public video channel of ${text(channel.workspaceName)}: ${links.channelUrl(slug)}. Each link opens a page that plays it.`,
    ...(channel.featured ? [`## Featured\n\n${entry(channel.featured, links)}`] : []),
    `## Videos\n\n${videos.length > 0 ? videos.map((item) => entry(item, links)).join('\n') : 'None yet.'}`,
    ...(routes.length > 0 ? [`## Interactive routes\n\n${routes.map((item) => entry(item, links)).join('\n')}`] : []),
  ];
  return `${sections.join('\n\n')}\n`;
}
