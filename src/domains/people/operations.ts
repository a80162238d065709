/** The people area's catalog operations: members and invitations (DESIGN §10). */
import type { AnyOperation } from '../../core/operation.ts';
import { inviteMember } from './operations/invite-member.ts';
import { listMembers } from './operations/list-members.ts';
import { removeMember } from './operations/remove-member.ts';
import { updateMember } from './operations/update-member.ts';

export const peopleOperations: readonly AnyOperation[] = [listMembers, inviteMember, updateMember, removeMember];
