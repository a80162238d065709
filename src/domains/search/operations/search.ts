/**
 * search: one ranked list across the workspace's videos, transcript moments, routes and leads, each
 * result with where to go next (the operation and arguments for an assistant, and a URL). Each kind
 * is searched only when the credential may read it (videos:read, transcripts:read, routes:read,
 * leads:read); the answer names the kinds left out. Lead titles and snippets follow the masking
 * rules. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Id, Nullable, StringEnum } from '../../../core/schemas.ts';
import type { Scope } from '../../../core/scopes.ts';
import { isServable } from '../../videos/index.ts';
import { findLeadMatches } from '../lead-matches.queries.ts';
import { watchAt } from '../moment-hits.ts';
import { findRouteMatches } from '../route-matches.queries.ts';
import { SearchText } from '../search.schemas.ts';
import type { SearchKind, SearchMatch } from '../search-matches.ts';
import { findMoments } from '../transcript-moments.queries.ts';
import { findVideoMatches } from '../video-matches.queries.ts';

const KINDS = ['video', 'transcript', 'route', 'lead'] as const;
const SCOPE_OF: Record<SearchKind, Scope> = {
  video: 'videos:read',
  transcript: 'transcripts:read',
  route: 'routes:read',
  lead: 'leads:read',
};

const Result = Type.Object(
  {
    kind: StringEnum(KINDS, { description: 'video, transcript (a moment of one), route or lead.' }),
    id: Id('The video (for a transcript moment too), route or lead.'),
    title: Type.String({ description: 'The video’s title, the route’s name, the lead’s name or email (masked while masking is on).' }),
    snippet: Type.String({ description: 'Where it matched, the matched words between ** marks.' }),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Relevance, 0–1; results come best first.' }),
    start_seconds: Nullable(Type.Number({ description: 'For a transcript moment: when the words are said.' })),
    next: Type.Object(
      {
        operation: Type.String({ description: 'The operation that tells more.' }),
        arguments: Type.Object(
          {
            video_id: Type.Optional(Id('For get_video and get_video_transcript.')),
            offset: Type.Optional(Type.Integer({ minimum: 0, description: 'For get_video_transcript: where the words start.' })),
            route_id: Type.Optional(Id('For get_route.')),
            lead_id: Type.Optional(Id('For get_lead.')),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false, description: 'Where to go next, for an assistant.' },
    ),
    url: Nullable(
      Type.String({ description: 'A public page: the watch page (at the moment), the route player; null for leads and private items.' }),
    ),
  },
  { additionalProperties: false },
);

export const search = defineOperation({
  name: 'search',
  summary: 'One search across videos, transcripts, routes and leads',
  description:
    'Finds q in video titles, descriptions and tags, in what is said in the videos (with the second), in routes (names, ' +
    'questions, choices) and in leads (name, email, notes), tolerating typos in names. One ranked list; each result says ' +
    'which operation and arguments tell more. A kind the credential may not read (leads without leads:read) is left out and named in left_out.',
  method: 'GET',
  path: '/search',
  group: 'Workspace',
  scope: 'workspace:read',
  write: false,
  errors: [],
  input: Type.Object(
    {
      q: SearchText,
      limit: Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Most results to return.' }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      q: Type.String({ description: 'The query as searched.' }),
      results: Type.Array(Result, { description: 'Best first, all kinds together.' }),
      left_out: Type.Array(
        Type.Object(
          { kind: StringEnum(KINDS), needs_scope: Type.String({ description: 'The scope that would include it.' }) },
          { additionalProperties: false },
        ),
        { description: 'Kinds not searched because the credential may not read them.' },
      ),
    },
    { additionalProperties: false },
  ),
  example: { q: 'pricing', limit: 20 },
  async handler(ctx, input) {
    const q = input.q.trim();
    const allowed = (kind: SearchKind) => ctx.principal.scopes.has(SCOPE_OF[kind]);
    const { workspaceId, db, links } = ctx;
    const [videos, moments, routes, leads] = await Promise.all([
      allowed('video') ? findVideoMatches(db, workspaceId, q, input.limit) : [],
      allowed('transcript') ? findMoments(db, { workspaceId, q, includeArchived: false, limit: input.limit }) : [],
      allowed('route') ? findRouteMatches(db, workspaceId, q, input.limit) : [],
      allowed('lead') ? findLeadMatches(db, workspaceId, q, input.limit, ctx.principal.maskPii) : [],
    ]);
    const found = ({ kind, id, title, snippet, score }: SearchMatch) => ({ kind, id, title, snippet, score, start_seconds: null });
    const results = [
      ...videos.map((match) => ({
        ...found(match),
        next: { operation: 'get_video', arguments: { video_id: match.id } },
        url: match.isPublic ? links.watchUrl(match.id) : null,
      })),
      ...moments.map((moment) => ({
        kind: 'transcript' as const,
        id: moment.videoId,
        title: moment.title,
        snippet: moment.snippet,
        score: moment.score,
        start_seconds: moment.startSeconds,
        next: { operation: 'get_video_transcript', arguments: { video_id: moment.videoId, offset: moment.offset } },
        url: isServable({ status: moment.status as 'ready', archived: moment.archived })
          ? watchAt(links, moment.videoId, moment.startSeconds)
          : null,
      })),
      ...routes.map((match) => ({
        ...found(match),
        next: { operation: 'get_route', arguments: { route_id: match.id } },
        url: match.isPublic ? links.routeUrl(match.id) : null,
      })),
      ...leads.map((match) => ({ ...found(match), next: { operation: 'get_lead', arguments: { lead_id: match.id } }, url: null })),
    ]
      .map((result) => ({ ...result, score: Math.round(result.score * 10_000) / 10_000 }))
      .sort((a, b) => b.score - a.score || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || a.title.localeCompare(b.title))
      .slice(0, input.limit);
    return {
      q,
      results,
      left_out: KINDS.filter((kind) => !allowed(kind)).map((kind) => ({ kind, needs_scope: SCOPE_OF[kind] })),
    };
  },
});
