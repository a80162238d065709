/**
 * The names a workspace's channel is found by (/c/{slug}, table workspace_slugs). A workspace has one
 * current slug, made from its name when it is created and changed through update_workspace. A
 * replaced slug keeps redirecting to the current one for SLUG_REDIRECT_DAYS, and until then no other
 * workspace may take it, so a link printed last month never opens someone else's channel.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { AppError, type FieldProblem } from '../../core/errors.ts';
import { describedPattern } from '../../core/schemas.ts';
import type { Database } from '../../db/tables/index.ts';
import { lockWorkspace } from '../workspace/index.ts';

export const SLUG_REDIRECT_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
const SLUG_MAX = 48;
const SLUG_FROM_NAME_MAX = 40;
/**
 * The longest slug ever looked up. Longer than SLUG_MAX because migration 0022 gave workspaces that
 * shared a long name their name's slug plus 12 characters of their id (53), and those still work.
 */
const SLUG_LOOKUP_MAX = 64;

export const Slug = Type.String({
  minLength: 3,
  maxLength: SLUG_MAX,
  ...describedPattern(
    '^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$',
    'must be letters, digits and hyphens, starting and ending with a letter or digit',
  ),
  description:
    'The channel’s address: /c/{slug}. 3 to 48 letters, digits and hyphens, stored in lowercase, unique. ' +
    `The old one redirects to the new one for ${SLUG_REDIRECT_DAYS} days.`,
});

/** A slug made from a name: accents dropped, lowercase, runs of anything else one hyphen ('Café Ünïon!' → 'cafe-union'). */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_FROM_NAME_MAX)
    .replace(/^-+|-+$/g, '');
  return slug.length >= 3 ? slug : `channel${slug ? `-${slug}` : ''}`;
}

/** Whether `text` could be a slug, in any letter case: anything else is never looked up (a NUL byte would not even reach PostgreSQL). */
export function mayBeSlug(text: string): boolean {
  return text.length <= SLUG_LOOKUP_MAX && /^[A-Za-z0-9-]+$/.test(text);
}

const heldSince = (now: Date) => new Date(now.getTime() - SLUG_REDIRECT_DAYS * DAY_MS);

/** Gives a new workspace its first slug: its name's, or that with a number or random suffix when taken. */
export async function claimFirstSlug(db: Kysely<Database>, workspaceId: string, name: string, now: Date): Promise<string> {
  const base = slugFromName(name);
  const suffix = `-${randomBytes(4).toString('hex')}`;
  // The random suffix is the last resort; the base gives way to it so the slug stays within SLUG_MAX.
  const shortened = base.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '');
  const candidates = [base, ...[2, 3, 4, 5].map((n) => `${base}-${n}`), `${shortened}${suffix}`];
  for (const slug of candidates) {
    const claimed = await db
      .insertInto('workspace_slugs')
      .values({ slug, workspace_id: workspaceId, created_at: now, replaced_at: null })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('slug')
      .executeTakeFirst();
    if (claimed) return claimed.slug;
  }
  throw new Error(`No free channel slug for ${base}`);
}

export async function currentSlug(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('workspace_slugs')
    .select('slug')
    .where('workspace_id', '=', workspaceId)
    .where('replaced_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.slug;
}

/** The problem with `slug` for this workspace (held by another, now or within the redirect period), if any. */
export async function slugProblem(db: Kysely<Database>, workspaceId: string, slug: string, now: Date): Promise<FieldProblem | null> {
  const holder = await db
    .selectFrom('workspace_slugs')
    .select(['workspace_id', 'replaced_at'])
    .where('slug', '=', slug.toLowerCase())
    .executeTakeFirst();
  if (!holder || holder.workspace_id === workspaceId) return null;
  if (holder.replaced_at !== null && holder.replaced_at < heldSince(now)) return null;
  return { field: 'slug', problem: `${JSON.stringify(slug.toLowerCase())} is taken by another channel; choose another` };
}

/**
 * Makes `slug` the workspace's current one; the one it replaces redirects from now on. Taking back one
 * of its own old slugs, or one whose redirect period has ended, is allowed. Runs in the caller's
 * transaction; a slug claimed by another workspace at the same instant is refused like a taken one.
 */
export async function changeSlug(db: Kysely<Database>, workspaceId: string, wanted: string, now: Date): Promise<void> {
  const slug = wanted.toLowerCase();
  // One change of this workspace's slug at a time: two at once would each make a current slug, and the
  // second would be refused as if its slug were taken. NO KEY keeps inserts referencing the workspace free.
  if (!(await lockWorkspace(db, workspaceId))) throw new Error(`changeSlug: no workspace ${workspaceId}`);
  if ((await currentSlug(db, workspaceId)) === slug) return;
  const problem = await slugProblem(db, workspaceId, slug, now);
  if (problem) throw AppError.invalid([problem]);
  // The wanted slug's old row (ours, or one whose hold has ended), and our own expired redirects, go.
  await db
    .deleteFrom('workspace_slugs')
    .where((eb) =>
      eb.or([
        eb.and([eb('slug', '=', slug), eb.or([eb('workspace_id', '=', workspaceId), eb('replaced_at', '<', heldSince(now))])]),
        eb.and([eb('workspace_id', '=', workspaceId), eb('replaced_at', '<', heldSince(now))]),
      ]),
    )
    .execute();
  await db
    .updateTable('workspace_slugs')
    .set({ replaced_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('replaced_at', 'is', null)
    .execute();
  try {
    await db.insertInto('workspace_slugs').values({ slug, workspace_id: workspaceId, created_at: now, replaced_at: null }).execute();
  } catch (error) {
    if ((error as { code?: unknown }).code !== '23505') throw error;
    throw AppError.invalid([{ field: 'slug', problem: `${JSON.stringify(slug)} is taken by another channel; choose another` }]);
  }
}

/**
 * The channel a public request names, by its current slug or an old one still redirecting: the
 * workspace and its current slug (a page asked for by another name redirects there). Undefined for
 * anything else.
 */
export async function findChannelSlug(
  db: Kysely<Database>,
  asked: string,
  now: Date,
): Promise<{ workspaceId: string; slug: string } | undefined> {
  if (!mayBeSlug(asked)) return undefined;
  const row = await db
    .selectFrom('workspace_slugs as asked')
    .innerJoin('workspace_slugs as current', (join) =>
      join.onRef('current.workspace_id', '=', 'asked.workspace_id').on('current.replaced_at', 'is', null),
    )
    .select(['asked.workspace_id', 'asked.replaced_at', 'current.slug'])
    .where('asked.slug', '=', asked.toLowerCase())
    .executeTakeFirst();
  if (!row || (row.replaced_at !== null && row.replaced_at < heldSince(now))) return undefined;
  return { workspaceId: row.workspace_id, slug: row.slug };
}
