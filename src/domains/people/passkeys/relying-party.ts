/**
 * Whom passkeys are made for (DESIGN §10): the relying-party ID is the host of PUBLIC_URL, without its
 * port (WebAuthn scopes a credential to a domain), and every response must have been made on
 * PUBLIC_URL's origin exactly, so a passkey cannot be used through a look-alike site.
 */
export interface RelyingParty {
  /** The host name: `cuepoint.example.com`, `localhost`. */
  id: string;
  /** `https://cuepoint.example.com`: scheme, host and port. */
  origin: string;
  /** What the browser's passkey dialog shows. */
  name: string;
}

export function relyingPartyFor(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Cuepoint' };
}
