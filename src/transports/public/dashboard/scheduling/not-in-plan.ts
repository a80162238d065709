/**
 * Scheduling needs the plan's `scheduling` entitlement: on `free` every operation answers 403
 * plan_limit. The pages say so in a person's words, with the tabs kept; other refusals in the
 * operation's own words.
 */
import type { Answer, PageContext } from '../kit/page-route.ts';
import { type SchedulingTab, schedulingTabs } from './scheduling-tabs.ts';

export function refusedRead(ctx: PageContext, answer: Answer<unknown> & { ok: false }, tab: SchedulingTab) {
  if (answer.error.code !== 'plan_limit') return ctx.refused(answer);
  return ctx.page(
    'Scheduling',
    '<h1>Scheduling</h1>' +
      schedulingTabs(tab) +
      '<p class="lede">Scheduling is part of the Pro and Business plans: event types with a booking page, bookings, and busy calendars.</p>' +
      `<p class="alert" role="alert">This workspace is on a plan without scheduling. An owner can change the plan in <a href="/app/settings">Settings</a>.</p>`,
    { status: answer.status },
  );
}
