/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app makes them: HMAC-SHA-1, 6
 * digits, a new code every 30 seconds, through otpauth. A code is accepted for the current step and
 * one step either side (clocks drift; a code typed as it changes), and the step it matched is what
 * the caller remembers, so no code is accepted twice.
 */
import { Secret, TOTP } from 'otpauth';

const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Steps either side of now a code may belong to. */
const WINDOW = 1;

/** A new secret: 160 random bits (RFC 4226's recommended length), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app opens (or a QR code carries): issuer Cuepoint, the person's email. */
export function totpUri(secret: string, account: string): string {
  return new TOTP({ issuer: 'Cuepoint', label: account, secret: Secret.fromBase32(secret), ...PARAMETERS }).toString();
}

/** The secret in groups of four, as a person types it from the screen: "JBSW Y3DP EHPK 3PXP". */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A code as typed, without the spaces and dashes people put in it ("123 456"). */
export function typedCode(text: string): string {
  return text.replace(/[\s-]/g, '');
}

export function looksLikeCode(text: string): boolean {
  return /^\d{6}$/.test(typedCode(text));
}

/** The time step `code` is right for (now's, or one either side), or undefined when it is right for none. */
export function matchingStep(secret: string, code: string, now: Date): number | undefined {
  const token = typedCode(code);
  if (!/^\d{6}$/.test(token)) return undefined;
  const timestamp = now.getTime();
  const delta = TOTP.validate({ token, secret: Secret.fromBase32(secret), ...PARAMETERS, timestamp, window: WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: PARAMETERS.period, timestamp }) + delta;
}

/** The code for `now` (tests, and a person's app, make it the same way). */
export function totpCode(secret: string, now: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), ...PARAMETERS, timestamp: now.getTime() });
}
