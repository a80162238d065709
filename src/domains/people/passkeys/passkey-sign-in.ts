/**
 * Signing in with a passkey (issue 27): usernameless. The browser asks for options (a challenge kept
 * server-side, no list of credentials: the authenticator offers the person's discoverable passkeys),
 * signs it, and the assertion is checked against the challenge, our origin and relying-party ID, the
 * passkey's public key, user verification and the signature counter. A failed assertion counts
 * toward the lockout like a wrong password: for the passkey's account when it names one, and for the
 * client address always; a locked account or address is refused before anything is checked.
 */
import type { PublicKeyCredentialRequestOptionsJSON, VerifiedAuthenticationResponse } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database, PasskeyRow, UserRow } from '../../../db/tables/index.ts';
import { failureKeys } from '../sign-in/password-sign-in.ts';
import { clearAccountFailures, lockoutOf, recordFailure } from '../sign-in/sign-in-failures.queries.ts';
import { CEREMONY_TIMEOUT_MS, consumeChallenge, issueChallenge } from './ceremony-challenges.queries.ts';
import { findPasskeyByCredentialId, recordPasskeyUse } from './passkeys.queries.ts';
import type { RelyingParty } from './relying-party.ts';
import { webauthn } from './webauthn-library.ts';
import { isAuthenticationResponse, signedChallenge, webauthnUserId } from './webauthn-responses.ts';

export type PasskeySignIn =
  | { kind: 'accepted'; user: UserRow; passkey: PasskeyRow }
  /** `user` when the assertion named a passkey of someone's (their workspaces see the failure). */
  | { kind: 'refused'; user: UserRow | undefined }
  | { kind: 'locked'; retryAfterSeconds: number };

export interface PasskeyAttempt {
  /** What the browser's startAuthentication() returned. */
  response: unknown;
  relyingParty: RelyingParty;
  /** The client's address, as the transport established it. */
  address: string;
  now: Date;
}

export async function passkeySignInOptions(
  db: Kysely<Database>,
  request: { relyingParty: RelyingParty; now: Date },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await issueChallenge(db, 'passkey_sign_in', null, request.now);
  return (await webauthn()).generateAuthenticationOptions({
    rpID: request.relyingParty.id,
    challenge,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
}

export async function checkPasskey(db: Kysely<Database>, serviceSecret: string, attempt: PasskeyAttempt): Promise<PasskeySignIn> {
  const { response, now } = attempt;
  const shaped = isAuthenticationResponse(response);
  const found = shaped ? await findPasskeyByCredentialId(db, response.id) : undefined;
  // An assertion of no known passkey counts against the address, and against a key of its own: the
  // credential id it names, or, when it names none, the address again (one key for every malformed
  // post would let five of them anywhere lock out every other one for a quarter of an hour).
  const pseudoAccount = shaped ? `passkey ${response.id}` : `passkey from ${attempt.address}`;
  const keys = failureKeys(serviceSecret, found ? found.user.email : pseudoAccount, attempt.address);
  const lockout = await lockoutOf(db, keys, now);
  if (lockout.retryAfterSeconds > 0) return { kind: 'locked', retryAfterSeconds: lockout.retryAfterSeconds };
  const refuse = async (): Promise<PasskeySignIn> => {
    await recordFailure(db, keys, now);
    return { kind: 'refused', user: found?.user };
  };
  if (!shaped) return refuse();
  const challenge = signedChallenge(response);
  // Spent before anything else is checked: an assertion is answered once, whatever the answer.
  if (!challenge || !(await consumeChallenge(db, 'passkey_sign_in', challenge, null, now)) || !found) return refuse();
  const { passkey, user } = found;
  // The authenticator says whose passkey it holds; it must be the person the passkey was registered to.
  const handle = response.response.userHandle;
  if (handle && handle !== Buffer.from(webauthnUserId(user.id)).toString('base64url')) return refuse();
  let verification: VerifiedAuthenticationResponse;
  try {
    verification = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: attempt.relyingParty.origin,
      expectedRPID: attempt.relyingParty.id,
      credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter: passkey.counter, transports: [] },
      requireUserVerification: true,
    });
  } catch {
    // A bad signature, another origin, a counter that went backwards (a cloned authenticator), no user verification.
    return refuse();
  }
  if (!verification.verified) return refuse();
  const info = verification.authenticationInfo;
  if (!(await recordPasskeyUse(db, passkey, { counter: info.newCounter, backedUp: info.credentialBackedUp, now }))) return refuse();
  if (lockout.accountHasFailures) await clearAccountFailures(db, keys.account);
  return { kind: 'accepted', user, passkey };
}
