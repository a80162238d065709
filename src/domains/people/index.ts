/**
 * The front door of the people area (issue 27, DESIGN §10): users, their sign-in methods, memberships
 * and roles, invitations and sessions. Nothing else of the area is reachable from outside it
 * (test/architecture.test.ts). The catalog takes the area's operations from ./operations.ts.
 */
export { userNames } from './user-names.queries.ts';
