/**
 * The front door of the people area (issue 27, DESIGN §10): users, their sign-in methods, memberships
 * and roles, invitations and sessions. Nothing else of the area is reachable from outside it
 * (test/architecture.test.ts). The catalog takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { openInvitation } from './invitations/invitations.queries.ts';
export { cleanPasskeyName, MAX_PASSKEY_NAME_LENGTH } from './passkeys/passkey-names.ts';
export { checkPasskey, type PasskeySignIn, passkeySignInOptions } from './passkeys/passkey-sign-in.ts';
export { listPasskeys, type Passkey } from './passkeys/passkeys.queries.ts';
export { type RelyingParty, relyingPartyFor } from './passkeys/relying-party.ts';
export { hashPassword, PASSWORD_HASH_PARAMETERS } from './passwords/password-hashing.ts';
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, newPasswordProblems } from './passwords/password-rules.ts';
export { personPrincipal } from './sessions/person-principal.ts';
export { ABSOLUTE_LIFETIME_MS, IDLE_LIFETIME_MS } from './sessions/session-lifetimes.ts';
export { csrfTokenFor, csrfTokenMatches, isWellFormedSecret } from './sessions/session-tokens.ts';
export { checkPassword, type PasswordSignIn } from './sign-in/password-sign-in.ts';
export { FAILURE_WINDOW_MS, MAX_ACCOUNT_FAILURES, MAX_ADDRESS_FAILURES } from './sign-in/sign-in-failures.queries.ts';
export { userNames } from './user-names.queries.ts';
export { canonicalEmail, findUser, renameUser } from './users/users.queries.ts';
export { checkSecondFactor, type SecondFactorCheck, startSecondFactor } from './two-factor/second-factor-sign-in.ts';
export { groupedSecret, looksLikeCode, totpUri } from './two-factor/totp.ts';
export {
  beginTwoFactorSetup,
  cancelTwoFactorSetup,
  type TwoFactorState,
  twoFactorState,
} from './two-factor/two-factor.queries.ts';

// Then the files that reach other areas.
export { confirmEmailChange, type EmailChange, pendingEmailChange, requestEmailChange } from './account/email-change.ts';
export { changePassword, type PasswordChange } from './account/password-change.ts';
export { type Accepted, type Acceptance, acceptInvitation, InvitationRefused } from './invitations/accept-invitation.ts';
export { inviteOwner, type OwnerInvitation } from './invitations/owner-invitation.ts';
export { membershipsOf } from './members/members.queries.ts';
export { type PersonEvent, recordPersonEvent } from './person-events.ts';
export {
  endSession,
  endUserSessions,
  listUserSessions,
  liveSession,
  type SignedIn,
  startSession,
  switchWorkspace,
} from './sessions/sessions.queries.ts';
export { requestSignInLink, signInLinkAccount, useSignInLink } from './sign-in/sign-in-links.ts';
export { removeUserPasskey, renameUserPasskey } from './passkeys/passkey-changes.ts';
export { addPasskey, MAX_PASSKEYS, PasskeyRefused, passkeyRegistrationOptions } from './passkeys/passkey-registration.ts';
export { type TurnOff, turnOffTwoFactor, turnOnTwoFactor } from './two-factor/two-factor-changes.ts';
