/**
 * @simplewebauthn/server, loaded on the first passkey ceremony instead of at start-up: with the
 * @peculiar ASN.1 and X.509 packages, tsyringe and asn1js it brings it is about 230 modules, a fifth
 * of a second of CPU that every start paid for a feature most starts never use. Node keeps the
 * module once loaded, so later ceremonies get it at once.
 */
export function webauthn(): Promise<typeof import('@simplewebauthn/server')> {
  return import('@simplewebauthn/server');
}
