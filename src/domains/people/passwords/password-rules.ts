/**
 * What a new password must be (NIST SP 800-63B §5.1.1.2): at least 10 characters, at most 256, and
 * not one of the passwords attackers try first. The list is zxcvbn-ts's common-password dictionary
 * (about 49,000 entries from breach corpora), loaded on first use; compared without case.
 */
import type { FieldProblem } from '../../../core/errors.ts';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

let common: Promise<ReadonlySet<string>> | undefined;

function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    const words = (dictionary as Record<string, string[]>)['passwords-common'] ?? [];
    // Only entries a password could be: shorter ones are refused by length already.
    return new Set(words.filter((word) => word.length >= MIN_PASSWORD_LENGTH).map((word) => word.toLowerCase()));
  });
  return common;
}

/** The problems of `password` as a new password for `field`, or none. */
export async function newPasswordProblems(password: string, field = 'password', email?: string): Promise<FieldProblem[]> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return [{ field, problem: `must be at least ${MIN_PASSWORD_LENGTH} characters long` }];
  if (length > MAX_PASSWORD_LENGTH) return [{ field, problem: `must be at most ${MAX_PASSWORD_LENGTH} characters long` }];
  const lowered = password.toLowerCase();
  if ((await commonPasswords()).has(lowered)) {
    return [{ field, problem: 'is one of the most common passwords, which attackers try first; choose another' }];
  }
  if (email && lowered === email.toLowerCase()) return [{ field, problem: 'must not be your email address' }];
  return [];
}
