/**
 * The demo's public channel, set through the code the channel operations use: a headline and intro
 * line, a featured video, a dozen visible items (the videos watched most that still play, and the
 * live routes), one archived video left visible and two items taken off, so get_channel shows every
 * kind of item; then 60 days of visitors opening them, recorded like the page's script reports them.
 * Deterministic for a given library, apart from ids.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables/index.ts';
import { lockChannel, placeChannelItem, recordChannelVisit, updateChannelRow } from '../domains/channel/index.ts';
import { liveRouteIds } from '../domains/routes/index.ts';
import { videosByViews } from '../domains/videos/index.ts';
import { prng } from './demo-library.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const GRID_VIDEOS = 10;
const PAGE_VIEWS = 240;
/** Of the page views, the share that open an item, and the share of returning browsers. */
const OPEN_RATE = 0.55;
const RETURN_RATE = 0.3;

export async function playDemoChannel(db: Kysely<Database>, workspaceId: string, now: Date): Promise<{ items: number; views: number }> {
  const random = prng(2026_11_25);
  const videos = await videosByViews(db, workspaceId);
  const playable = videos.filter((video) => video.status === 'ready' && !video.archived);
  const archived = videos.find((video) => video.archived);
  const unready = videos.find((video) => video.status !== 'ready');
  const routeIds = await liveRouteIds(db, workspaceId);
  const [featured, ...rest] = playable;
  if (!featured) return { items: 0, views: 0 };
  const grid = [
    ...rest.slice(0, GRID_VIDEOS).map((video) => ({ kind: 'video' as const, id: video.id, visible: true })),
    ...routeIds.slice(0, 2).map((id) => ({ kind: 'route' as const, id, visible: true })),
    ...(archived ? [{ kind: 'video' as const, id: archived.id, visible: true }] : []),
    ...(unready ? [{ kind: 'video' as const, id: unready.id, visible: false }] : []),
    ...rest.slice(GRID_VIDEOS, GRID_VIDEOS + 1).map((video) => ({ kind: 'video' as const, id: video.id, visible: false })),
  ];
  const setUpAt = new Date(now.getTime() - 61 * DAY_MS);
  await db.transaction().execute(async (trx) => {
    await lockChannel(trx, workspaceId, setUpAt);
    await updateChannelRow(
      trx,
      workspaceId,
      {
        headline: 'See what our product can do for your team',
        dek: 'Short demos, customer stories and how-tos: start with the tour, or pick what you need.',
        featured_video_id: featured.id,
      },
      setUpAt,
    );
    // Routes go third, so the grid mixes the two kinds.
    for (const [index, item] of grid.entries()) {
      await placeChannelItem(trx, workspaceId, { ...item, position: item.kind === 'route' ? 2 : index }, setUpAt);
    }
  });

  const shown = [{ kind: 'video' as const, id: featured.id }, ...grid.filter((item) => item.visible && item.id !== archived?.id)];
  const browsers: string[] = [];
  for (let view = 0; view < PAGE_VIEWS; view++) {
    const returning = browsers.length > 0 && random() < RETURN_RATE;
    const browser = returning ? (browsers[Math.floor(random() * browsers.length)] as string) : `demo_${randomUUID().replaceAll('-', '')}`;
    if (!returning) browsers.push(browser);
    // Earlier items are opened more, as on a real page.
    const opened = random() < OPEN_RATE ? [shown[Math.floor(random() * random() * shown.length)]] : [];
    const at = new Date(now.getTime() - Math.floor(random() * 60 * DAY_MS));
    await recordChannelVisit(db, {
      workspaceId,
      viewId: randomUUID(),
      viewerId: browser,
      events: [{ type: 'view' }, ...opened.flatMap((item) => (item ? [{ type: 'open' as const, kind: item.kind, id: item.id }] : []))],
      now: at,
    });
  }
  return { items: grid.length, views: PAGE_VIEWS };
}
