/**
 * The demo's leads: some videos ask for an email (each placement once at least), and some of the
 * simulated viewers who reached the form filled it, through the same `captureLead` the watch page
 * uses, at the time of that session: leads appear over the ninety days, their browsers linked, the
 * videos' lead counts kept. Then a sales team's touch: notes, tags and statuses on some of them, a
 * few days after each capture. Deterministic for a given viewing history.
 */
import type { Kysely } from 'kysely';
import { outboxEmitter } from '../db/outbox.ts';
import type { Database } from '../db/tables/index.ts';
import {
  captureLead,
  countLeads,
  emitLeadChange,
  type LeadFormSetting,
  leadSnapshot,
  leadsByCaptureTime,
  normalizeLeadForm,
  upsertLeadRecord,
} from '../domains/leads/index.ts';
import { seedLeadForm } from '../domains/videos/index.ts';
import { viewingSessionsOfVideos } from '../domains/viewing/index.ts';
import { prng } from './demo-library.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Every this-many watchable video asks for an email. */
const FORM_EVERY = 4;
/** Of the sessions that reached a form, the share that filled it. */
const FILL_RATE = 0.3;
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Katherine', 'Linus', 'Margaret', 'Tim', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Torvalds', 'Hamilton', 'Berners-Lee', 'Liskov', 'Ritchie', 'Allen'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];
const NOTES = [
  'Asked about the annual plan on a call.',
  'Wants a demo for their whole team next week.',
  'Evaluating us against two other tools.',
  'Sent the security questionnaire.',
  'Budget approved for next quarter.',
];
const DEMO_AUTHOR = 'Demo sales team';

export interface DemoLeadVideo {
  id: string;
  durationSeconds: number;
  archived: boolean;
}

/** Sets the forms, plays the captures and the follow-ups; returns how many leads exist afterwards. */
export async function playDemoLeads(
  db: Kysely<Database>,
  workspaceId: string,
  videos: readonly DemoLeadVideo[],
  now: Date,
): Promise<number> {
  const random = prng(12_2026);
  const forms = new Map<string, ReturnType<typeof normalizeLeadForm>>();
  const candidates = videos.filter((video) => !video.archived);
  for (const [i, video] of candidates.entries()) {
    if (i % FORM_EVERY !== 0) continue;
    const form = normalizeLeadForm(formSetting(forms.size, video.durationSeconds));
    forms.set(video.id, form);
    await seedLeadForm(db, workspaceId, video.id, form);
  }
  if (forms.size === 0) return 0;

  const sessions = await viewingSessionsOfVideos(db, workspaceId, [...forms.keys()]);
  for (const session of sessions) {
    const form = forms.get(session.video_id);
    const reached = session.watched.reduce((furthest, [, end]) => Math.max(furthest, end), 0);
    const asked =
      form?.placement === 'before' ||
      (form?.placement === 'at_second' && reached >= (form.at_second ?? 0)) ||
      (form?.placement === 'end' && reached >= session.duration_seconds * 0.9);
    if (!asked || random() >= FILL_RATE) continue;
    await captureLead(db, {
      videoId: session.video_id,
      sessionId: session.id,
      viewerId: session.viewer_id,
      fields: fieldsFor(session.viewer_id, form?.fields ?? []),
      at: session.last_seen_at,
    });
  }
  await followUp(db, workspaceId, now, random);
  return countLeads(db, workspaceId);
}

/** The forms in turn: an email at the end, one mid-video asking names, a skippable gate. */
function formSetting(index: number, durationSeconds: number): LeadFormSetting {
  switch (index % 3) {
    case 0:
      return { placement: 'end', headline: 'Want the slides? Leave your email.', button_text: 'Send me the slides' };
    case 1:
      return {
        placement: 'at_second',
        at_second: Math.round(durationSeconds * 0.3),
        fields: ['first_name', 'last_name'],
        headline: 'Get the full recording',
      };
    default:
      return { placement: 'before', skippable: true, fields: ['first_name'], headline: 'Tell us who is watching' };
  }
}

/** A person per demo browser: the same viewer fills the same email (an enrichment on a second form). */
function fieldsFor(viewerId: string, asked: readonly string[]): { email: string; first_name?: string; last_name?: string } {
  const n = Number(viewerId.replace(/\D/g, '')) || 0;
  const first = FIRST_NAMES[n % FIRST_NAMES.length] as string;
  const last = LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length] as string;
  const email = `${first}.${last}${n}@${DOMAINS[n % DOMAINS.length]}`.toLowerCase();
  return {
    email,
    ...(asked.includes('first_name') ? { first_name: first } : {}),
    ...(asked.includes('last_name') ? { last_name: last } : {}),
  };
}

/** Notes, tags and statuses a few days after capture, through the same upsert every writer uses. */
async function followUp(db: Kysely<Database>, workspaceId: string, now: Date, random: () => number): Promise<void> {
  for (const lead of await leadsByCaptureTime(db, workspaceId)) {
    const roll = random();
    const at = new Date(Math.min(now.getTime(), lead.created_at.getTime() + (1 + random() * 5) * DAY_MS));
    const status = roll < 0.08 ? 'customer' : roll < 0.22 ? 'qualified' : roll < 0.28 ? 'lost' : undefined;
    const note = random() < 0.4 ? NOTES[Math.floor(random() * NOTES.length)] : undefined;
    if (!status && !note) continue;
    await db.transaction().execute(async (trx) => {
      const { changed } = await upsertLeadRecord(trx, {
        workspaceId,
        fields: { email: lead.email, ...(status ? { status } : {}), ...(status === 'qualified' ? { tags: ['sales-ready'] } : {}) },
        ...(note ? { note } : {}),
        author: DEMO_AUTHOR,
        source: 'video',
        at,
      });
      if (changed.length === 0) return;
      const snapshot = await leadSnapshot(trx, workspaceId, lead.id, at);
      await emitLeadChange(outboxEmitter(trx, workspaceId, at), { leadId: lead.id, created: false, changed, lead: snapshot });
    });
  }
}
