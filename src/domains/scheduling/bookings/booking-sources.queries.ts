/**
 * Where a booking says it came from: the video whose "Book a call" and the route whose booking choice
 * led to the booking page (its link's ?video= and ?route=, which the page sends with the booking).
 * A booking records them, credits the video's ledger entry and the lead's history with them, so they
 * must be the workspace's own. The page keeps only those when it renders a link someone edited, so an
 * edited link still books; a booking that sends another workspace's id, or one nobody has, is refused
 * naming the field, before anything is written, rather than booked with the id silently dropped.
 */
import type { Kysely } from 'kysely';
import { AppError, type FieldProblem } from '../../../core/errors.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database } from '../../../db/tables/index.ts';
import { hasRoute } from '../../routes/index.ts';
import { videosWithIds } from '../../videos/index.ts';

export interface BookingSources {
  videoId: string | null;
  routeId: string | null;
}

type SentSources = { videoId?: string | null | undefined; routeId?: string | null | undefined };

/** Of the ids a booking page's link names, those of the workspace's own video and route; null for the others. */
export async function ownBookingSources(db: Kysely<Database>, workspaceId: string, from: SentSources): Promise<BookingSources> {
  const videoId = from.videoId && isUuid(from.videoId) ? from.videoId.toLowerCase() : null;
  const routeId = from.routeId && isUuid(from.routeId) ? from.routeId.toLowerCase() : null;
  const [video, route] = await Promise.all([
    videoId ? videosWithIds(db, workspaceId, [videoId]) : [],
    routeId ? hasRoute(db, workspaceId, routeId) : false,
  ]);
  return { videoId: video.length > 0 ? videoId : null, routeId: route ? routeId : null };
}

/** The sources a booking sent, each the workspace's own, or `400 invalid_request` naming every one that is not. */
export async function requireBookingSources(db: Kysely<Database>, workspaceId: string, from: SentSources): Promise<BookingSources> {
  const own = await ownBookingSources(db, workspaceId, from);
  const problems: FieldProblem[] = [];
  if (from.videoId && !own.videoId) problems.push({ field: 'video_id', problem: 'names no video of this booking page’s workspace' });
  if (from.routeId && !own.routeId) problems.push({ field: 'route_id', problem: 'names no route of this booking page’s workspace' });
  if (problems.length > 0) throw AppError.invalid(problems);
  return own;
}
