/**
 * The email worker: sends the outbox's due messages through the configured SMTP server, up to
 * `concurrency` at once, each under a lease (src/domains/email/delivery-queue.ts). At-least-once: a
 * sender killed after the server accepted a message but before recording it leaves a lapsed lease,
 * and the message is sent again with the same Message-ID, so the copy is recognisable. Temporary
 * failures come back with exponential backoff and jitter; a permanent one, or the last attempt, ends
 * the message failed with the reason. A graceful stop lets the messages in flight finish (for a
 * few seconds at most).
 *
 * With no SMTP server configured (the embedded default) nothing is sent: messages wait in the outbox,
 * where owners read them, and each link a person needs (an invitation, a sign-in link) is written to
 * the log once, so the person can still be let in.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Log } from '../core/context.ts';
import { abortableSleep } from '../core/values/abortable-sleep.ts';
import { createWaker } from '../core/values/waker.ts';
import type { Database } from '../db/tables/index.ts';
import {
  type ClaimedEmail,
  claimDueEmails,
  createSmtpSender,
  EMAIL_RETRY_POLICY,
  type EmailRetryPolicy,
  emailRetryDelayMs,
  logUnsentLinks,
  type MailFrom,
  reapAbandonedEmails,
  recordEmailFailure,
  recordEmailSent,
  SEND_DEADLINE_MS,
  type SendOutcome,
  type SmtpSender,
  type SmtpSettings,
} from '../domains/email/index.ts';

const REAP_EVERY_MS = 5000;
const LINKS_BATCH = 100;
/**
 * How long a stop waits for the messages in flight: a healthy server answers in well under a second,
 * so they are recorded and not sent again; one that hangs is left behind before the shutdown
 * deadline (10 s by default), its lease lapses and the message goes again, with the same Message-ID.
 */
const STOP_GRACE_MS = 5000;

export interface EmailWorkerOptions {
  db: Kysely<Database>;
  log: Log;
  /** Config.email: null when CUEPOINT_SMTP_URL is unset. */
  smtp: SmtpSettings | null;
  /** CUEPOINT_MAIL_FROM; configuration requires it with an SMTP server. */
  from: MailFrom | null;
  /** How often an idle worker looks for due messages (default 1 s). */
  pollMs?: number;
  /** Messages one worker sends at once (default 4). */
  concurrency?: number;
  /** Default: twice the longest a send may take, so a live sender's lease never lapses mid-send. */
  leaseMs?: number;
  retryPolicy?: EmailRetryPolicy;
  clock?: () => Date;
  random?: () => number;
}

export interface EmailWorker {
  /** Stops claiming, lets the messages in flight finish (up to STOP_GRACE_MS), and waits for the loop. */
  stop(): Promise<void>;
}

export function startEmailWorker(options: EmailWorkerOptions): EmailWorker {
  const { smtp, from, log } = options;
  const stopping = new AbortController();
  let running: Promise<void>;
  if (smtp === null) {
    log.info({}, 'email: no SMTP server (CUEPOINT_SMTP_URL); messages wait in the outbox and the links they carry are written to this log');
    running = logLinks(options, stopping.signal);
  } else {
    if (from === null) throw new TypeError('An SMTP server needs a From address (CUEPOINT_MAIL_FROM)');
    log.info({ smtp: smtp.description, from: from.address }, `email: sending through ${smtp.description}`);
    running = sendDueMessages(options, smtp, from, stopping.signal);
  }
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

/** No SMTP server: each queued message's link goes to the log once, with its purpose and recipient. */
async function logLinks(options: EmailWorkerOptions, signal: AbortSignal): Promise<void> {
  const { db, log } = options;
  const clock = options.clock ?? (() => new Date());
  while (!signal.aborted) {
    try {
      const logged = await logUnsentLinks(db, { now: clock(), limit: LINKS_BATCH }, (message) =>
        log.info(
          {
            email_id: message.id,
            workspace_id: message.workspace_id,
            purpose: message.purpose,
            to: message.to_address,
            link: message.link,
          },
          `email not sent (no CUEPOINT_SMTP_URL); the ${message.purpose.replaceAll('_', ' ')} link for ${message.to_address}: ${message.link}`,
        ),
      );
      if (logged === LINKS_BATCH) continue;
    } catch (err) {
      log.warn({ err }, 'email outbox unavailable; retrying');
    }
    await abortableSleep(options.pollMs ?? 1000, signal);
  }
}

async function sendDueMessages(options: EmailWorkerOptions, smtp: SmtpSettings, from: MailFrom, signal: AbortSignal): Promise<void> {
  const { db, log } = options;
  const clock = options.clock ?? (() => new Date());
  const policy = options.retryPolicy ?? EMAIL_RETRY_POLICY;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 2 * SEND_DEADLINE_MS;
  const workerId = `email-${process.pid}-${randomUUID().slice(0, 8)}`;
  const sender: SmtpSender = await createSmtpSender(smtp, from);
  const inFlight = new Set<Promise<void>>();
  const slotFreed = createWaker(signal);

  const deliver = async (email: ClaimedEmail): Promise<void> => {
    const outcome = await sender.send(email);
    const now = clock();
    if (outcome.kind === 'accepted') {
      if (!(await recordEmailSent(db, email, outcome.response, now))) fencedOff(email);
      return;
    }
    const retryAt = retryTime(email, outcome, policy, now, options.random);
    if (!(await recordEmailFailure(db, email, { error: outcome.error, retryAt }, now))) return fencedOff(email);
    const fields = { email_id: email.id, purpose: email.purpose, attempt: email.attempts, error: outcome.error };
    if (retryAt) log.warn({ ...fields, retry_at: retryAt.toISOString() }, 'email attempt failed; it will be tried again');
    else
      log.warn(
        fields,
        outcome.kind === 'permanent' ? 'email refused by the SMTP server; not tried again' : 'email failed on its last attempt',
      );
  };
  const fencedOff = (email: ClaimedEmail) =>
    log.warn(
      { email_id: email.id, attempt: email.attempts },
      'email attempt finished after its lease was taken over; its result is ignored',
    );

  const track = (email: ClaimedEmail) => {
    const attempt = deliver(email)
      .catch((err: unknown) => log.warn({ err, email_id: email.id }, 'email attempt could not be recorded; its lease will lapse'))
      .finally(() => {
        inFlight.delete(attempt);
        slotFreed.wake();
      });
    inFlight.add(attempt);
  };

  let lastReap = 0;
  while (!signal.aborted) {
    try {
      const now = clock();
      if (now.getTime() - lastReap >= REAP_EVERY_MS) {
        lastReap = now.getTime();
        const reaped = await reapAbandonedEmails(db, now, policy.maxAttempts);
        if (reaped > 0) log.warn({ reaped }, 'emails whose senders kept stopping mid-attempt marked failed');
      }
      const room = concurrency - inFlight.size;
      if (room > 0) {
        const claimed = await claimDueEmails(db, { workerId, leaseMs, now, limit: room, maxAttempts: policy.maxAttempts });
        for (const email of claimed) track(email);
        if (claimed.length === room) continue; // maybe more due: look again once a slot frees
      }
    } catch (err) {
      log.warn({ err }, 'email outbox unavailable; retrying');
    }
    // Until the poll interval passes, a send finishes (a slot frees) or the worker stops.
    await slotFreed.wait(options.pollMs ?? 1000);
  }
  await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
  sender.close();
}

/** When a failed attempt is tried again; null when it is not (refused for good, or the last attempt). */
function retryTime(email: ClaimedEmail, outcome: SendOutcome, policy: EmailRetryPolicy, now: Date, random?: () => number): Date | null {
  if (outcome.kind !== 'temporary' || email.attempts >= policy.maxAttempts) return null;
  return new Date(now.getTime() + emailRetryDelayMs(email.attempts, policy, random));
}
