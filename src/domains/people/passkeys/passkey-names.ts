/**
 * What a passkey may be called: a label for its owner ("Work laptop"), at most 60 characters, on one
 * line. A passkey added without a name takes its provider's ("Google Password Manager") or
 * "Passkey N", made unique among the person's passkeys.
 */
import { authenticatorName } from './authenticator-names.ts';

export const MAX_PASSKEY_NAME_LENGTH = 60;

/** The name as it is kept: control characters gone, runs of spaces made one, trimmed. Empty when nothing is left. */
export function cleanPasskeyName(name: string): string {
  return name
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Why `name` (already cleaned) cannot be a passkey's name, or undefined when it can. */
export function passkeyNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'Enter a name for the passkey.';
  if ([...name].length > MAX_PASSKEY_NAME_LENGTH) return `A passkey’s name can be at most ${MAX_PASSKEY_NAME_LENGTH} characters long.`;
  return undefined;
}

/** The name of a new passkey the person did not name: its provider's, or "Passkey N"; never one they already use. */
export function defaultPasskeyName(aaguid: string, taken: readonly string[]): string {
  const used = new Set(taken.map((name) => name.toLowerCase()));
  const provider = authenticatorName(aaguid);
  if (provider) {
    for (let n = 1; ; n++) {
      const name = n === 1 ? provider : `${provider} ${n}`;
      if (!used.has(name.toLowerCase())) return name;
    }
  }
  for (let n = taken.length + 1; ; n++) {
    const name = `Passkey ${n}`;
    if (!used.has(name.toLowerCase())) return name;
  }
}
