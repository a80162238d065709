/**
 * What the booking page's two endpoints accept (docs/scheduling.md, "Booking page"): GET
 * /book/{event_type_id}/slots, a window of at most 31 days (the query); POST /book/{event_type_id},
 * the viewer's choice and details. The same fields and rules as create_booking's, named as the
 * page's form names them.
 */
import { type Static, Type } from 'typebox';
import { Email, Id, PersonName, Phone, Timestamp, TimeZone } from '../../../core/schemas.ts';
import { ViewerIdField } from '../../../domains/viewing/index.ts';

export const SlotsQuery = Type.Object(
  {
    from: Type.Optional(Timestamp('The window’s start; default now.')),
    to: Type.Optional(Timestamp('The window’s end, at most 31 days after from; default from + 7 days.')),
  },
  { additionalProperties: false },
);
export type SlotsQuery = Static<typeof SlotsQuery>;

export const BookingBody = Type.Object(
  {
    start: Timestamp('The chosen slot’s start, as the slots endpoint gave it.'),
    name: PersonName('The viewer’s name.', 200),
    email: Email('The viewer’s email address.'),
    phone: Type.Optional(Phone('A phone number, when the viewer gives one.')),
    timezone: TimeZone('The zone the viewer saw the times in (IANA).'),
    video_id: Type.Optional(Id('The video whose "Book a call" led here (the page’s ?video=).')),
    route_id: Type.Optional(Id('The route whose choice led here (the page’s ?route=).')),
    viewer_id: Type.Optional(ViewerIdField),
  },
  { additionalProperties: false },
);
export type BookingBody = Static<typeof BookingBody>;
