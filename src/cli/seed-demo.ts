/**
 * `cuepoint seed --demo [--workspace ID] [--json]`: a living library for a newcomer to explore: six
 * folders and sixty videos with tags, statuses and archived ones (the ready ones play: short clips
 * made with ffmpeg, with posters and captions, demo-media.ts), ninety days of viewing played
 * through the real collection code (demo-viewing.ts), and the leads some viewers left on the videos'
 * forms, captured through the watch page's code (demo-leads.ts), and what some of them bought, booked
 * or got refunded, through the ledger's code (demo-outcomes.ts), interactive routes walked by
 * viewers (demo-routes.ts), and event types with calls booked, canceled and moved through the
 * scheduling code (demo-scheduling.ts), and a public channel with its visitors (demo-channel.ts).
 * Creates a new business-plan workspace (and prints its admin key) unless --workspace names an
 * existing one.
 */
import type { Config } from '../config.ts';
import { PLANS } from '../core/plans.ts';
import { createWorkspace } from '../create-workspace.ts';
import { resolveSigningSecret } from '../db/signing-secret.ts';
import { configuredMediaStore } from '../dependencies.ts';
import { countLeads } from '../domains/leads/index.ts';
import { archiveSeededVideos } from '../domains/videos/index.ts';
import { workspaceFacts } from '../domains/workspace/index.ts';
import { createMediaLinks, invitationUrl } from '../media/media-links.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { CommandRefusedError } from './command-refused.ts';
import { playDemoChannel } from './demo-channel.ts';
import { playDemoLeads } from './demo-leads.ts';
import { DEMO_FOLDERS } from './demo-library.ts';
import { playDemoOutcomes } from './demo-outcomes.ts';
import { demoRouteVideos, playDemoRoutes } from './demo-routes.ts';
import { playDemoScheduling } from './demo-scheduling.ts';
import { playDemoViewing } from './demo-viewing.ts';
import { insertDemoLibrary } from './insert-demo-library.ts';
import { UsageError } from './usage-error.ts';

export async function seedDemo(config: Config, options: { demo: boolean; workspace?: string; json: boolean }): Promise<void> {
  if (!options.demo) throw new UsageError('seed needs --demo (the only data set there is)');
  if (!config.ffmpegPath) throw new CommandRefusedError(noFfmpeg(config));
  const database = await openConfiguredDatabase(config, { migrate: true });
  try {
    const now = config.demoNow ?? new Date();
    let workspaceId = options.workspace;
    let apiKey: string | undefined;
    let ownerInviteUrl: string | undefined;
    if (workspaceId) {
      if (!(await workspaceFacts(database.db, workspaceId))) throw new UsageError(`No workspace ${workspaceId}`);
    } else {
      const created = await createWorkspace(database.db, {
        name: 'Demo workspace',
        plan: 'business',
        now,
        by: { actor: { kind: 'cli', id: null, name: 'cuepoint seed --demo' }, origin: { transport: 'cli' } },
        // A new workspace gets its owner's link too, or nobody could sign in to its dashboard.
        owner: { email: null, invitationUrl: (secret) => invitationUrl(config.publicUrl, secret) },
      });
      workspaceId = created.workspace.id;
      apiKey = created.apiKey;
      ownerInviteUrl = created.ownerInviteUrl;
    }
    const wsId = workspaceId;
    const secret = await resolveSigningSecret(database.db, config.secret);
    const { links } = createMediaLinks(secret, config.publicUrl);
    const media = { store: await configuredMediaStore(config), ffmpegPath: config.ffmpegPath };
    const { videos, watchable } = await insertDemoLibrary(database.db, { workspaceId: wsId, now, links, media });
    const sessions = await playDemoViewing(database.db, watchable, now);
    // Before archiving: a form is filled on a video while it is served.
    await playDemoLeads(database.db, wsId, watchable, now);
    // Before the ledger: a route's lead form adds leads, whose purchases the ledger may hold.
    // A workspace whose plan has no interactive routes (seeding an existing free one) gets none.
    const facts = await workspaceFacts(database.db, wsId);
    if (!facts) throw new Error(`Workspace ${wsId} is gone`);
    const { plan } = facts;
    const routes = PLANS[plan].entitlements.has('interactive_routes')
      ? await playDemoRoutes(database.db, wsId, await demoRouteVideos(database.db, wsId, watchable), now)
      : 0;
    // Booked calls are real bookings, which add their ledger entries; none on a plan without scheduling.
    const scheduling = PLANS[plan].entitlements.has('scheduling')
      ? await playDemoScheduling(
          database.db,
          wsId,
          watchable.filter((video) => !video.archived).map((video) => video.id),
          now,
        )
      : { eventTypes: 0, bookings: 0 };
    const outcomes = await playDemoOutcomes(database.db, wsId, now);
    const leads = await countLeads(database.db, wsId);
    const archivedIds = watchable.filter((video) => video.archived).map((video) => video.id);
    await archiveSeededVideos(database.db, wsId, archivedIds);
    // Last: the channel shows what the library, the routes and the archiving made.
    const channel = await playDemoChannel(database.db, wsId, now);
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ workspace_id: wsId, ...(apiKey ? { api_key: apiKey } : {}), ...(ownerInviteUrl ? { owner_invite_url: ownerInviteUrl } : {}), videos, folders: DEMO_FOLDERS.length, viewing_sessions: sessions, leads, outcomes, routes, event_types: scheduling.eventTypes, bookings: scheduling.bookings, channel_items: channel.items, channel_views: channel.views })}\n`,
      );
    } else {
      process.stdout.write(
        `Seeded ${videos} videos in ${DEMO_FOLDERS.length} folders, ${sessions} viewing sessions, ${leads} leads, ${outcomes} ledger entries, ${routes} interactive routes, ${scheduling.eventTypes} event types, ${scheduling.bookings} booked calls and a public channel of ${channel.items} items with ${channel.views} page views over 90 days into workspace ${wsId}.\n`,
      );
      if (apiKey) process.stdout.write(`Admin API key (shown once): ${apiKey}\n`);
      if (ownerInviteUrl) process.stdout.write(`Create the owner's account (works once, for 7 days): ${ownerInviteUrl}\n`);
    }
  } finally {
    await database.close();
  }
}

/** The demo's videos are real clips made with ffmpeg: without one there would be nothing to play. */
function noFfmpeg(config: Config): string {
  const why = config.ffmpegBundledProblem ?? 'CUEPOINT_FFMPEG is off';
  return `seed --demo makes a short clip for each demo video with ffmpeg, and there is none (${why}). Set CUEPOINT_FFMPEG to the path of an ffmpeg.`;
}
