/**
 * What a browser sends back from a passkey ceremony, checked for shape before anything is looked up:
 * base64url strings of bounded length where WebAuthn puts them (a credential id is at most 1,023
 * bytes), and the challenge read from the client data it signed. Anything else is not a response.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** 1,023 bytes of credential id in base64url. */
const MAX_ID = 1366;
/** Client data, authenticator data, attestation objects and signatures of real authenticators fit easily. */
const MAX_PART = 16_384;

function isBase64url(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max && BASE64URL.test(value);
}

function isCredential(value: unknown): value is { id: string; rawId: string; type: 'public-key'; response: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null) return false;
  const credential = value as Record<string, unknown>;
  return (
    isBase64url(credential.id, MAX_ID) &&
    credential.rawId === credential.id &&
    credential.type === 'public-key' &&
    typeof credential.response === 'object' &&
    credential.response !== null
  );
}

export function isRegistrationResponse(value: unknown): value is RegistrationResponseJSON {
  if (!isCredential(value)) return false;
  const { clientDataJSON, attestationObject, transports } = value.response;
  return (
    isBase64url(clientDataJSON, MAX_PART) &&
    isBase64url(attestationObject, MAX_PART) &&
    (transports === undefined ||
      (Array.isArray(transports) && transports.length <= 10 && transports.every((t) => typeof t === 'string' && t.length <= 32)))
  );
}

export function isAuthenticationResponse(value: unknown): value is AuthenticationResponseJSON {
  if (!isCredential(value)) return false;
  const { clientDataJSON, authenticatorData, signature, userHandle } = value.response;
  return (
    isBase64url(clientDataJSON, MAX_PART) &&
    isBase64url(authenticatorData, MAX_PART) &&
    isBase64url(signature, MAX_PART) &&
    (userHandle === undefined || userHandle === null || isBase64url(userHandle, 128))
  );
}

/** The challenge the client data says was signed (base64url), or undefined when it cannot be read. */
export function signedChallenge(response: { response: { clientDataJSON: string } }): string | undefined {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return isBase64url(clientData.challenge, 128) ? clientData.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** The WebAuthn user handle of a person: their id's bytes, the same for all their passkeys. */
export function webauthnUserId(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}
