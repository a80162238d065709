/**
 * Adding a passkey (issue 27): the signed-in person asks for options (a challenge kept server-side,
 * their passkeys excluded so one authenticator is not registered twice), their browser makes the
 * credential, and the response is checked against that challenge, our origin and relying-party ID,
 * with user verification required. The passkey is then saved with its audit event, in one transaction.
 * Passkeys must be discoverable (resident keys): signing in names no account, the passkey does.
 */
import type { PublicKeyCredentialCreationOptionsJSON, VerifiedRegistrationResponse } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import type { Database, PasskeyRow, UserRow } from '../../../db/tables/index.ts';
import { recordPersonEvent } from '../person-events.ts';
import { CEREMONY_TIMEOUT_MS, consumeChallenge, issueChallenge } from './ceremony-challenges.queries.ts';
import { cleanPasskeyName, defaultPasskeyName, passkeyNameProblem } from './passkey-names.ts';
import { insertPasskey, listPasskeys } from './passkeys.queries.ts';
import type { RelyingParty } from './relying-party.ts';
import { webauthn } from './webauthn-library.ts';
import { isRegistrationResponse, signedChallenge, webauthnUserId } from './webauthn-responses.ts';

/** A passkey that was not added, with what to tell the person. */
export class PasskeyRefused extends AppError {}

/** A person may keep this many passkeys: plenty for every device they own, and a bound on the page. */
export const MAX_PASSKEYS = 20;

export async function passkeyRegistrationOptions(
  db: Kysely<Database>,
  request: { user: Pick<UserRow, 'id' | 'email' | 'name'>; relyingParty: RelyingParty; now: Date },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listPasskeys(db, request.user.id);
  if (existing.length >= MAX_PASSKEYS)
    throw new PasskeyRefused('conflict', `You already have ${MAX_PASSKEYS} passkeys. Remove one you no longer use first.`);
  const challenge = await issueChallenge(db, 'passkey_registration', request.user.id, request.now);
  return (await webauthn()).generateRegistrationOptions({
    rpName: request.relyingParty.name,
    rpID: request.relyingParty.id,
    userName: request.user.email,
    userDisplayName: request.user.name,
    userID: webauthnUserId(request.user.id),
    challenge,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

export interface NewPasskeyRequest {
  user: Pick<UserRow, 'id' | 'name'>;
  /** What the browser's startRegistration() returned. */
  response: unknown;
  /** The name the person typed; blank for the default. */
  name: string;
  relyingParty: RelyingParty;
  origin: { address?: string; userAgent?: string };
  now: Date;
}

/**
 * Checks the browser's response and saves the passkey, or throws PasskeyRefused. The challenge is
 * spent first, in a statement of its own, so a response that fails cannot be sent again.
 */
export async function addPasskey(db: Kysely<Database>, request: NewPasskeyRequest): Promise<PasskeyRow> {
  const typed = cleanPasskeyName(request.name);
  const nameProblem = typed ? passkeyNameProblem(typed) : undefined;
  if (nameProblem) throw new PasskeyRefused('invalid_request', nameProblem);
  const { response } = request;
  if (!isRegistrationResponse(response)) throw new PasskeyRefused('invalid_request', 'That is not a passkey your browser made.');
  const challenge = signedChallenge(response);
  if (!challenge || !(await consumeChallenge(db, 'passkey_registration', challenge, request.user.id, request.now)))
    throw new PasskeyRefused('conflict', 'This passkey request has expired or was already used. Try adding the passkey again.');
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: request.relyingParty.origin,
      expectedRPID: request.relyingParty.id,
      requireUserVerification: true,
    });
  } catch {
    verification = { verified: false };
  }
  // The id the browser names must be the one the authenticator signed for.
  if (!verification.verified || verification.registrationInfo.credential.id !== response.id)
    throw new PasskeyRefused('invalid_request', 'Your browser’s passkey could not be checked, so it was not added. Try again.');
  const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;
  return db.transaction().execute(async (trx) => {
    const taken = (await listPasskeys(trx, request.user.id)).map((passkey) => passkey.name);
    const passkey = await insertPasskey(trx, {
      userId: request.user.id,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: typed || defaultPasskeyName(aaguid, taken),
      now: request.now,
    });
    if (!passkey) throw new PasskeyRefused('conflict', 'This passkey is already registered. Choose another one, or use it to sign in.');
    await recordPersonEvent(trx, {
      user: request.user,
      action: 'passkey.added',
      origin: request.origin,
      at: request.now,
      details: { passkey_id: passkey.id },
    });
    return passkey;
  });
}
