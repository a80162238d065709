/**
 * A software passkey authenticator for server-side tests: it makes discoverable ES256 credentials
 * ("none" attestation, user present and verified) and signs assertions exactly as a browser and a
 * platform authenticator would hand them to @simplewebauthn/browser's callers, so the service's checks
 * run on real signatures. Every field a test may want to get wrong can be changed: the origin, the
 * challenge, the credential id, the counter, the user handle. Real Chromium's virtual authenticator
 * covers the browser side (test/browser/passkeys.test.ts).
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { type Browser, csrfOf } from './people.ts';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

export interface SoftwareCredential {
  /** base64url, as WebAuthn names it. */
  id: string;
  privateKey: KeyObject;
  /** The user handle the relying party gave at registration (base64url). */
  userHandle: string;
  rpId: string;
  counter: number;
}

export interface CeremonyTweaks {
  /** The origin the client data claims (the relying party's own by default). */
  origin?: string;
  /** A challenge other than the options' one. */
  challenge?: string;
  /** A counter other than the next one. */
  counter?: number;
  /** Another user handle (or none). */
  userHandle?: string | null;
  /** Claim the credential id of another passkey while signing with this one's key. */
  credentialId?: string;
  /** Leave out user verification. */
  unverified?: boolean;
  /** Register this existing credential again (its id and key) instead of making a new one. */
  again?: SoftwareCredential;
}

const b64 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Answers registration options as navigator.credentials.create() would; the new credential is kept. */
  create(options: PublicKeyCredentialCreationOptionsJSON, tweaks: CeremonyTweaks = {}): RegistrationResponseJSON {
    const { privateKey, publicKey } = tweaks.again
      ? { privateKey: tweaks.again.privateKey, publicKey: createPublicKey(tweaks.again.privateKey) }
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Uint8Array | number>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]);
    const credentialId = tweaks.again ? Buffer.from(tweaks.again.id, 'base64url') : randomBytes(32);
    const rpId = options.rp.id as string;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_USER_PRESENT | (tweaks.unverified ? 0 : FLAG_USER_VERIFIED) | FLAG_ATTESTED_CREDENTIAL]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: tweaks.challenge ?? options.challenge,
      origin: tweaks.origin ?? this.origin,
      crossOrigin: false,
    });
    const id = b64(credentialId);
    if (!tweaks.again) this.credentials.push({ id, privateKey, userHandle: options.user.id, rpId, counter: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64(Buffer.from(clientDataJSON)), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers sign-in options with `credential` (the newest by default) as navigator.credentials.get() would. */
  get(
    options: PublicKeyCredentialRequestOptionsJSON,
    credential: SoftwareCredential = this.newest(),
    tweaks: CeremonyTweaks = {},
  ): AuthenticationResponseJSON {
    credential.counter = tweaks.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authenticatorData = Buffer.concat([
      sha256(options.rpId ?? credential.rpId),
      Buffer.from([FLAG_USER_PRESENT | (tweaks.unverified ? 0 : FLAG_USER_VERIFIED)]),
      counter,
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: tweaks.challenge ?? options.challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
    const id = tweaks.credentialId ?? credential.id;
    const userHandle = tweaks.userHandle === undefined ? credential.userHandle : tweaks.userHandle;
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authenticatorData),
        signature: b64(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  newest(): SoftwareCredential {
    const credential = this.credentials.at(-1);
    if (!credential) throw new Error('this authenticator holds no credential yet');
    return credential;
  }
}

/** Adds a passkey as /passkey-setup.js does, for a signed-in `person`; the JSON answer and its status. */
export async function registerPasskey(
  person: Browser,
  authenticator: SoftwareAuthenticator,
  name = '',
  tweaks: CeremonyTweaks = {},
): Promise<{ status: number; body: { passkey_id?: string; name?: string; error?: { code: string; message: string } } }> {
  const csrf = csrfOf((await person.get('/app/account/passkeys')).body);
  const options = await person.postJson('/app/account/passkeys/options', {}, { 'x-csrf-token': csrf });
  if (options.statusCode !== 200) throw new Error(`registration options: ${options.statusCode} ${options.body}`);
  const response = authenticator.create(JSON.parse(options.body).options, tweaks);
  const added = await person.postJson('/app/account/passkeys', { response, name }, { 'x-csrf-token': csrf });
  return { status: added.statusCode, body: JSON.parse(added.body) };
}

/** Asks /sign-in for passkey options as /passkey-sign-in.js does. */
export async function passkeySignInOptions(person: Browser): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const answer = await person.postJson('/sign-in/passkey/options', {});
  if (answer.statusCode !== 200) throw new Error(`sign-in options: ${answer.statusCode} ${answer.body}`);
  return JSON.parse(answer.body).options;
}
