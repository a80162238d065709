/**
 * PKCE (RFC 7636), S256 only, as OAuth 2.1 and the MCP authorization spec require: an authorization
 * request without a challenge, or with the `plain` method (which shows the verifier to anyone who sees
 * the request), is refused and no code is issued. The verifier is checked in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. A S256 challenge is 43 (base64url of 32 bytes). */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** What is wrong with an authorization request's PKCE parameters; empty when they may be used. */
export function pkceChallengeProblems(challenge: string | undefined, method: string | undefined): string[] {
  const problems: string[] = [];
  if (method === undefined) problems.push('code_challenge_method is required and must be S256');
  else if (method !== 'S256') problems.push(`code_challenge_method ${JSON.stringify(method.slice(0, 20))} is not supported: only S256`);
  if (challenge === undefined) problems.push('code_challenge is required (PKCE, S256)');
  else if (!S256_CHALLENGE.test(challenge)) problems.push('code_challenge must be the 43-character base64url SHA-256 of the code verifier');
  return problems;
}

/** Whether `verifier` is the one the S256 `challenge` was made from. */
export function verifierMatches(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  const made = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return made.length === expected.length && timingSafeEqual(made, expected);
}
