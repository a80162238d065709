/**
 * The public forms that may create a lead (the lead forms, the route player's form, the booking form)
 * answer no sooner than a floor after the request arrived, so neither the answer's content nor its
 * timing tells whether an address was a lead already (OWASP: account enumeration).
 */
import { setTimeout } from 'node:timers/promises';

/**
 * Creating a lead and enriching a known one are different work (about 14 ms against 12 ms, median, on
 * PostgreSQL), so an answer as soon as the work was done would tell a script timing many submissions
 * which addresses are already leads. Well above that work, and unnoticeable to a person who just
 * pressed a button. The app's `answerFloorMs` option overrides it (tests that do not time answers set 0).
 */
export const ANSWER_FLOOR_MS = 250;

/** Waits until `floorMs` after `arrived` (a `performance.now()` reading); at once if that has passed. */
export async function answerNoSoonerThan(arrived: number, floorMs: number): Promise<void> {
  const left = floorMs - (performance.now() - arrived);
  if (left > 0) await setTimeout(left);
}
