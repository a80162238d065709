/**
 * Videos a route writer names by id or by exact title (create_route's entry_video, add_route_step's
 * video, a choice's to_video), resolved together in two queries. Only ready, non-archived videos of
 * the caller's workspace can be a step. What cannot be resolved is a problem of the field that named
 * it, so one answer lists them all: an id no video of the workspace has (another workspace's id reads
 * the same; on a well-formed call the handler answers not_found for it, AppError.refusing), a video
 * that is archived or not ready, a title nothing has, or a title several videos share, naming the
 * candidates so the writer can send an id.
 */
import type { Kysely } from 'kysely';
import { type FieldProblem, unknownId } from '../../../core/errors.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database } from '../../../db/tables/index.ts';
import { videosTitled, videosWithIds } from '../../videos/index.ts';

/** Candidates a problem names; beyond them it says how many more. */
const MAX_CANDIDATES = 5;

export interface VideoReference {
  /** The input field it came from, as problems name it: `entry_video`, `branches[2].to_video`. */
  field: string;
  reference: string;
}

export interface ResolvedVideo {
  id: string;
  title: string;
}

export interface ResolvedReferences {
  /** By field, the videos that resolved. */
  videos: Map<string, ResolvedVideo>;
  problems: FieldProblem[];
}

interface Candidate {
  id: string;
  title: string;
  status: string;
  archived: boolean;
}

const quote = (text: string) => `“${text}”`;
const usable = (video: Candidate) => video.status === 'ready' && !video.archived;

function unusable(video: Candidate): string {
  if (video.archived) return 'is archived; unarchive it first';
  return `is not ready yet (${video.status.replace('_', ' ')}); a step needs a ready video`;
}

export async function resolveVideoReferences(
  db: Kysely<Database>,
  workspaceId: string,
  references: readonly VideoReference[],
): Promise<ResolvedReferences> {
  const trimmed = references.map((ref) => ({ ...ref, reference: ref.reference.trim() }));
  const ids = [...new Set(trimmed.filter((ref) => isUuid(ref.reference)).map((ref) => ref.reference.toLowerCase()))];
  const titles = [...new Set(trimmed.filter((ref) => !isUuid(ref.reference)).map((ref) => ref.reference.toLowerCase()))];
  const [byId, byTitle] = await Promise.all([
    videosWithIds(db, workspaceId, ids),
    // Case-insensitive here, so that "intro" can point at "Intro"; the match itself is exact.
    videosTitled(db, workspaceId, titles),
  ]);
  const videos = new Map<string, ResolvedVideo>();
  const problems: FieldProblem[] = [];
  for (const { field, reference } of trimmed) {
    if (isUuid(reference)) {
      const video = byId.find((candidate) => candidate.id === reference.toLowerCase());
      if (!video) problems.push(unknownId(field, 'video', reference));
      else if (!usable(video)) problems.push({ field, problem: `the video ${quote(video.title)} ${unusable(video)}` });
      else videos.set(field, { id: video.id, title: video.title });
      continue;
    }
    const exact = byTitle.filter((candidate) => candidate.title === reference);
    const ready = exact.filter(usable);
    if (ready.length === 1) {
      videos.set(field, { id: ready[0]?.id as string, title: reference });
    } else if (ready.length > 1) {
      problems.push({ field, problem: `${ready.length} videos are titled ${quote(reference)}: ${candidates(ready)}; send the id of one` });
    } else if (exact.length > 0) {
      problems.push({ field, problem: `the video titled ${quote(reference)} ${unusable(exact[0] as Candidate)}` });
    } else {
      const near = byTitle.filter((candidate) => candidate.title.toLowerCase() === reference.toLowerCase() && usable(candidate));
      const hint = near.length > 0 ? `; titles differ only in case: ${candidates(near)}` : '';
      problems.push({ field, problem: `no video is titled exactly ${quote(reference)}${hint}` });
    }
  }
  return { videos, problems };
}

function candidates(videos: readonly Candidate[]): string {
  const named = videos.slice(0, MAX_CANDIDATES).map((video) => `${video.id} (${quote(video.title)})`);
  const more = videos.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}
