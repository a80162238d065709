/**
 * The public channel (docs/channel.md), outside /v1 and without a credential:
 * - GET /c/{slug}: the page (channel-page-html.ts), revalidated by ETag; an old slug, or the slug in
 *   other letter case, redirects to the current one; anything else a friendly 404 page, an outage a
 *   503 page.
 * - GET /c/{slug}.md and /c/{slug}/llms.txt: the same channel as Markdown (channel-markdown.ts).
 * - POST /c/{slug}/events: page views and items opened, from /channel.js (channel-visits.ts),
 *   readable from a beacon too; bots are dropped like /collect drops them; limited per client
 *   address.
 * - GET /channel.js: the page's script.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { inputProblems } from '../../../core/pipeline/validation.ts';
import { findChannelSlug, loadPublicChannel, recordChannelVisit } from '../../../domains/channel/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { isBot } from '../collect/collect.ts';
import type { AddressLimits } from '../http/address-limits.ts';
import { acceptBeaconJson } from '../http/beacon-json-body.ts';
import { bodyTooLargeHandler } from '../http/error-reply.ts';
import { answerOutageWithPage, servePageScript } from '../http/page-serving.ts';
import { replyRevalidated } from '../http/revalidated-reply.ts';
import { limitedWrite } from '../http/write-limits.ts';
import { CHANNEL_EVENTS_BODY_LIMIT, ChannelEventsBody, channelEventShapeProblems } from './channel-bodies.ts';
import { channelMarkdown } from './channel-markdown.ts';
import { CHANNEL_HEADERS, channelPage, MISSING_CHANNEL_PAGE, UNAVAILABLE_CHANNEL_PAGE } from './channel-page-html.ts';

export interface ChannelPageOptions {
  db: DataAccess;
  links: MediaLinks;
  rateLimiter: RateLimiter;
  addressLimits: AddressLimits;
  clock: () => Date;
}

type Variant = { suffix: ''; kind: 'page' } | { suffix: '.md' | '/llms.txt'; kind: 'markdown' };

const VARIANTS: Variant[] = [
  { suffix: '.md', kind: 'markdown' },
  { suffix: '/llms.txt', kind: 'markdown' },
  { suffix: '', kind: 'page' },
];

const MARKDOWN_HEADERS = { 'Content-Type': 'text/markdown; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** Splits `acme.md` into the slug and the variant asked for. */
function parsePath(rest: string): { slug: string; variant: Variant } {
  const variant = VARIANTS.find((candidate) => rest.endsWith(candidate.suffix)) as Variant;
  return { slug: rest.slice(0, rest.length - variant.suffix.length), variant };
}

export async function registerChannelPage(app: FastifyInstance, options: ChannelPageOptions): Promise<void> {
  servePageScript(app, '/channel.js', 'channel.js');
  await app.register(async (pages) => {
    pages.setErrorHandler(answerOutageWithPage(() => ({ headers: CHANNEL_HEADERS.notice, body: UNAVAILABLE_CHANNEL_PAGE })));
    // A wildcard, so that any malformed or over-long slug gets the page too.
    pages.get('/c/*', (request, reply) => renderChannel(options, request, reply));
    pages.get('/c/', (_request, reply) => reply.code(404).headers(CHANNEL_HEADERS.notice).send(MISSING_CHANNEL_PAGE));
  });
  await app.register(async (events) => {
    acceptBeaconJson(events, CHANNEL_EVENTS_BODY_LIMIT);
    events.setErrorHandler(bodyTooLargeHandler('A report of channel events', CHANNEL_EVENTS_BODY_LIMIT));
    events.post('/c/:slug/events', { bodyLimit: CHANNEL_EVENTS_BODY_LIMIT }, (request, reply) => postEvents(options, request, reply));
  });
}

async function renderChannel(options: ChannelPageOptions, request: FastifyRequest, reply: FastifyReply) {
  const { slug: asked, variant } = parsePath((request.params as { '*': string })['*']);
  const found = await findChannelSlug(options.db, asked, options.clock());
  if (!found) return reply.code(404).headers(CHANNEL_HEADERS.notice).send(MISSING_CHANNEL_PAGE);
  if (asked !== found.slug) {
    // The query goes along (campaign tags on an old link), re-encoded by the URL parser so it is a valid header.
    const { search } = new URL(request.url, 'http://channel.invalid');
    // Bounded, so a slug given up and later taken by someone else stops redirecting from caches too.
    return reply
      .code(301)
      .header('Location', `/c/${found.slug}${variant.suffix}${search}`)
      .header('Cache-Control', 'public, max-age=3600')
      .send();
  }
  const channel = await loadPublicChannel(options.db, found.workspaceId);
  if (!channel) return reply.code(404).headers(CHANNEL_HEADERS.notice).send(MISSING_CHANNEL_PAGE);
  const context = { channel, slug: found.slug, links: options.links };
  if (variant.kind === 'markdown')
    return replyRevalidated(request, reply, MARKDOWN_HEADERS, channelMarkdown(channel, found.slug, options.links));
  return replyRevalidated(request, reply, CHANNEL_HEADERS.found, channelPage(context));
}

async function postEvents(options: ChannelPageOptions, request: FastifyRequest, reply: FastifyReply) {
  if (isBot(request.headers['user-agent'])) return reply.code(204).send();
  const shape = inputProblems(ChannelEventsBody, request.body, 'json');
  const reported = new Set(shape.map((problem) => problem.field));
  const problems = [...shape, ...channelEventShapeProblems(request.body).filter((problem) => !reported.has(problem.field))];
  if (problems.length > 0) throw AppError.invalid(problems);
  const body = request.body as ChannelEventsBody;
  const now = options.clock();
  const found = await findChannelSlug(options.db, (request.params as { slug: string }).slug, now);
  if (!found) throw new AppError('not_found', 'There is no channel at this address.');
  await limitedWrite(options.rateLimiter, [options.addressLimits.of(request, 'channel_events')], () =>
    recordChannelVisit(options.db, {
      workspaceId: found.workspaceId,
      viewId: body.view_id.toLowerCase(),
      viewerId: body.viewer_id,
      events: body.events.map((event) =>
        event.type === 'open'
          ? { type: 'open', kind: event.kind as 'video' | 'route', id: (event.id as string).toLowerCase() }
          : { type: 'view' },
      ),
      now,
    }),
  );
  return reply.code(200).header('Cache-Control', 'no-store').send({ accepted: true });
}
