/**
 * Changing a password from the account page: the current one must be given (when there is one), the
 * new one must pass the rules, and every other session of the person ends (DESIGN §10) — a thief
 * holding a session loses it the moment the owner changes their password. The person is told by email.
 */
import type { Kysely } from 'kysely';
import type { FieldProblem } from '../../../core/errors.ts';
import type { Database } from '../../../db/tables/index.ts';
import { queueEmail, renderEmail } from '../../email/index.ts';
import { hashPassword, passwordMatches } from '../passwords/password-hashing.ts';
import { newPasswordProblems } from '../passwords/password-rules.ts';
import { endUserSessions } from '../sessions/sessions.queries.ts';
import { findUser, setPassword } from '../users/users.queries.ts';

export type PasswordChange = { kind: 'changed'; otherSessionsEnded: number } | { kind: 'refused'; problems: FieldProblem[] };

export async function changePassword(
  db: Kysely<Database>,
  change: { userId: string; sessionId: string; current: string; next: string; now: Date },
): Promise<PasswordChange> {
  const user = await findUser(db, change.userId);
  if (!user) return { kind: 'refused', problems: [{ field: 'current_password', problem: 'your account no longer exists' }] };
  if (user.password_hash && !(await passwordMatches(user.password_hash, change.current))) {
    return { kind: 'refused', problems: [{ field: 'current_password', problem: 'is not your current password' }] };
  }
  const problems = await newPasswordProblems(change.next, 'new_password', user.email);
  if (problems.length > 0) return { kind: 'refused', problems };
  const hash = await hashPassword(change.next);
  return db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, hash, change.now);
    const otherSessionsEnded = await endUserSessions(trx, user.id, change.now, change.sessionId);
    const { text, html } = renderEmail({
      heading: 'Your password was changed',
      paragraphs: [
        `Hi ${user.name}, the password of your Cuepoint account was changed on ${change.now.toUTCString()}, and every other device was signed out.`,
        'If this was not you, ask for a sign-in link from the sign-in page at once and set a new password.',
      ],
    });
    await queueEmail(
      trx,
      {
        workspaceId: null,
        to: { address: user.email, name: user.name },
        subject: 'Your Cuepoint password was changed',
        text,
        html,
        purpose: 'password_changed',
      },
      change.now,
    );
    return { kind: 'changed', otherSessionsEnded };
  });
}
