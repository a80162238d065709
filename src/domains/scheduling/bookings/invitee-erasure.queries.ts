/**
 * Erasing a person from the workspace's bookings (erase_lead): each booking they made stays, as time
 * blocked on the calendar (a slot taken stays taken; its booked_call entry stays in the ledger), with
 * none of them in it: the invitee's email, name, phone and time zone, the lead, and the cancel reason
 * (free text, often theirs) are cleared, and the invitee's cancel link stops working (no secret
 * matches an empty hash), since nobody is left to use it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/** Anonymises the bookings of the lead or of its email; answers how many. */
export async function eraseBookingInvitee(
  db: Kysely<Database>,
  workspaceId: string,
  invitee: { leadId: string; email: string },
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('bookings')
    .set({
      invitee_email: null,
      invitee_name: null,
      invitee_phone: null,
      invitee_timezone: null,
      cancel_reason: null,
      lead_id: null,
      cancel_token_hash: '',
      updated_at: now,
    })
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([eb('lead_id', '=', invitee.leadId), eb(eb.fn('lower', ['invitee_email']), '=', invitee.email.trim().toLowerCase())]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
