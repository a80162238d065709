/**
 * What needs a person's attention, from the operations that know: videos whose processing failed
 * (list_videos), routes whose completion rate fell (list_changes), and for those who manage webhooks,
 * endpoints the service paused or whose deliveries gave up (list_webhook_endpoints, which counts each
 * endpoint's exhausted deliveries: one call however many endpoints there are).
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatShare } from '../kit/formats.ts';
import type { PageContext } from '../kit/page-route.ts';

export interface Changes {
  summary: string[];
  route_changes: { route_id: string; name: string; completion_rate: number; previous_completion_rate: number; change: number }[];
}

interface Endpoint {
  endpoint_id: string;
  name: string;
  disabled_reason: string | null;
  exhausted_deliveries: number;
}

interface Item {
  href: string;
  text: string;
  detail: string;
}

async function webhookTrouble(context: PageContext): Promise<Item[]> {
  if (!context.may('workspace:manage')) return [];
  const endpoints = await context.call<{ webhook_endpoints: Endpoint[] }>('list_webhook_endpoints', { limit: 20 });
  if (!endpoints.ok) return [];
  return endpoints.body.webhook_endpoints.flatMap((endpoint): Item[] => {
    const href = `/app/settings/webhooks/${endpoint.endpoint_id}`;
    if (endpoint.disabled_reason)
      return [{ href, text: `Webhook “${endpoint.name}” was paused by the service`, detail: endpoint.disabled_reason }];
    if (endpoint.exhausted_deliveries === 0) return [];
    const count = endpoint.exhausted_deliveries;
    return [
      {
        href,
        text: `Webhook “${endpoint.name}” gave up on ${formatCount(count)} ${count === 1 ? 'delivery' : 'deliveries'}`,
        detail: 'Every retry failed; see its deliveries to resend them.',
      },
    ];
  });
}

/** Videos whose processing failed and that are still in the library, however long ago (list_videos). */
async function failedVideos(context: PageContext): Promise<Item[]> {
  const failed = await context.call<{ videos: { video_id: string; title: string }[] }>('list_videos', { status: 'failed', limit: 5 });
  if (!failed.ok) return [];
  return failed.body.videos.map((video) => ({
    href: `/app/videos/${video.video_id}`,
    text: `“${video.title}” failed processing`,
    detail: 'Open it to see why and retry.',
  }));
}

/**
 * Everything that needs attention. The failed videos and the webhooks are asked at once with the
 * page's other widgets; the falling routes come from `list_changes`, which the page asks anyway.
 */
export async function attentionItems(context: PageContext, changes: Promise<Changes | undefined>): Promise<Item[]> {
  const [failed, webhooks, changed] = await Promise.all([failedVideos(context), webhookTrouble(context), changes]);
  const routes = (changed?.route_changes ?? [])
    .filter((route) => route.change < 0)
    .map((route) => ({
      href: `/app/routes/${route.route_id}`,
      text: `Fewer visitors finish “${route.name}”`,
      detail: `Completion ${formatShare(route.completion_rate)}, down from ${formatShare(route.previous_completion_rate)}.`,
    }));
  return [...failed, ...routes, ...webhooks];
}

export function attentionSection(items: Item[]): string {
  const body =
    items.length === 0
      ? '<p class="empty">Nothing needs you: no failed videos, no falling routes, no failing webhooks.</p>'
      : `<ul class="rows">${items
          .map(
            (item) =>
              `<li><div><a href="${escapeHtml(item.href)}">${escapeHtml(item.text)}</a><br><span class="meta">${escapeHtml(item.detail)}</span></div></li>`,
          )
          .join('')}</ul>`;
  return `<section aria-labelledby="attention-heading"><h2 id="attention-heading">Needs attention</h2>${body}</section>`;
}
