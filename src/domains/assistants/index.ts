/**
 * The front door of the assistants area (DESIGN §10 "Connected assistants"; issue 29): the OAuth
 * clients that may ask a person to connect an assistant to a workspace. Nothing else of the area is
 * reachable from outside it (test/architecture.test.ts). The area has no catalog operation: its grants'
 * tokens are credentials, listed and deleted through the api-keys area's operations.
 */
export {
  type AuthorizationReading,
  type AuthorizationRequest,
  authorizationResponseUrl,
  readAuthorizationRequest,
} from './authorization/authorization-request.ts';
export { type ConsentChoices, consentChoices, type GrantedScopes, grantedScopes } from './authorization/consent-scopes.ts';
export {
  type CodeGrant,
  CODE_LIFETIME_MS,
  issueAuthorizationCode,
  type RedemptionResult,
  redeemAuthorizationCode,
  sweepExpiredCodes,
} from './authorization/codes.queries.ts';
export { readClientMetadata, type ClientMetadata, type MetadataReading } from './clients/client-metadata.ts';
export {
  type DocumentFetch,
  documentUrlProblems,
  guardedDocumentFetch,
  isDocumentClientId,
} from './clients/client-metadata-document.ts';
export {
  type ClientLookup,
  findClient,
  markClientUsed,
  type OAuthClient,
  registerClient,
  sweepUnusedClients,
} from './clients/clients.queries.ts';
export { redirectUriMatches, redirectUriProblems } from './clients/redirect-uris.ts';

// Then the files that reach other areas.
export {
  ACCESS_TOKEN_LIFETIME_MS,
  endGrantOfCode,
  type IssuedTokens,
  REFRESH_TOKEN_LIFETIME_MS,
  refreshGrant,
  revokeGrantByToken,
  startGrant,
  sweepExpiredRefreshTokens,
  type TokenCaller,
  type TokenRefusal,
} from './grants/grants.queries.ts';
