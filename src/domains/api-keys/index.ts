/**
 * The front door of the api-keys area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */

export { countActiveCredentials } from './active-credentials.queries.ts';
export { credentialName, mintCredential } from './api-keys.queries.ts';
export { markCredentialUsed } from './credential-use.queries.ts';
export { parseRequestedScopes } from './requested-scopes.ts';
