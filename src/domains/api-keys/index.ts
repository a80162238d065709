/**
 * The front door of the api-keys area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { countActiveCredentials } from './active-credentials.queries.ts';
export {
  credentialIdOfToken,
  credentialIsLive,
  credentialSummary,
  endCredential,
  replaceCredentialToken,
} from './credential-tokens.queries.ts';
export { markCredentialUsed } from './credential-use.queries.ts';
export { parseRequestedScopes } from './requested-scopes.ts';

// Then the files that reach other areas.
export { mintCredential } from './api-keys.queries.ts';
