/**
 * /app/scheduling/bookings/{id}: one call (get_booking), and for members, owners and admins its two
 * writes: reschedule (pick another time the event type offers: get_scheduling_availability with
 * include=offered over a week, radio buttons by day; reschedule_booking) and cancel with an optional
 * reason (cancel_booking). A refused write comes back on this page with the operation's words: a
 * reason too long next to its field, a time taken meanwhile with the next open ones.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatDateTime, formatMoney } from '../kit/formats.ts';
import { type Answer, csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { workspaceZone } from '../kit/workspace-zone.ts';
import { fieldError, invalidAttributes, type Problems, problemSummary, problemsOf } from './form-problems.ts';
import { addDays, dayLabel, isDate, middayUtc, todayIn, zonedDateTime, zonedTime } from './local-days.ts';
import { doneNotice, schedulingTabs } from './scheduling-tabs.ts';
import type { Availability, Booking, FieldProblem, OfferedSlot } from './scheduling-types.ts';

const WEEK_DAYS = 7;

interface WriteState {
  cancel?: { reason: string; problems: Problems; all: FieldProblem[] };
  reschedule?: { start: string; message: string; nextSlots: { start: string }[] };
}

function bookingPath(id: string): string {
  return `/app/scheduling/bookings/${encodeURIComponent(id)}`;
}

async function bookingPage(ctx: PageContext, id: string, state: WriteState = {}, status = 200) {
  const [answer, zone] = await Promise.all([ctx.call<Booking>('get_booking', { booking_id: id }), workspaceZone(ctx)]);
  if (!answer.ok)
    return answer.status === 404 ? ctx.notFound('No such booking', 'This workspace has no booking with that id.') : ctx.refused(answer);
  const booking = answer.body;
  const writable = ctx.may('leads:write') && booking.status === 'confirmed';
  const from = isDate(ctx.query.from) ? ctx.query.from : todayIn(zone, ctx.deps.clock());
  // The week to pick from needs the booking's event type: the one call that waits for another.
  const offered = writable ? await offeredWeek(ctx, booking, from) : undefined;
  const who = booking.invitee_name ?? booking.invitee_email ?? 'an erased invitee';
  const content =
    '<p class="crumbs"><a href="/app/scheduling/bookings">← Bookings</a></p>' +
    `<div class="title-row"><h1>${escapeHtml(booking.event_type.name)} with ${escapeHtml(who)}</h1>` +
    `<span class="sched-status ${booking.status}">${booking.status === 'confirmed' ? 'Confirmed' : 'Canceled'}</span></div>` +
    schedulingTabs('bookings') +
    doneNotice(ctx.query.done, { rescheduled: 'The call is moved. The invitee keeps the same booking.' }) +
    '<div class="sched-columns">' +
    `<section class="sched-card" aria-labelledby="call-heading"><h2 id="call-heading">The call</h2>${facts(booking, zone)}</section>` +
    (writable
      ? `<div class="sched-stack">${rescheduleSection(ctx, booking, zone, from, offered, state)}${cancelSection(ctx, booking, state)}</div>`
      : '') +
    '</div>';
  return ctx.page(`${booking.event_type.name} with ${who}`, content, { status });
}

async function offeredWeek(ctx: PageContext, booking: Booking, from: string): Promise<Answer<Availability>> {
  return ctx.call<Availability>('get_scheduling_availability', {
    event_type: booking.event_type.event_type_id,
    from: new Date(middayUtc(from).getTime() - 12 * 3600_000).toISOString(),
    to: new Date(middayUtc(from).getTime() + (WEEK_DAYS * 24 - 12) * 3600_000).toISOString(),
    include: 'offered',
  });
}

function facts(b: Booking, zone: string): string {
  const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`;
  return (
    '<dl class="sched-facts">' +
    row(
      'When',
      `${escapeHtml(zonedDateTime(b.start, zone))} – ${escapeHtml(zonedTime(b.end, zone))} <span class="meta">(${escapeHtml(zone)})</span>`,
    ) +
    row(
      'Invitee’s time',
      `${escapeHtml(zonedDateTime(b.start, b.invitee_timezone))} <span class="meta">(${escapeHtml(b.invitee_timezone)})</span>`,
    ) +
    row('Name', escapeHtml(b.invitee_name ?? '—')) +
    row('Email', escapeHtml(b.invitee_email ?? '—')) +
    row('Phone', escapeHtml(b.invitee_phone ?? '—')) +
    row('Location', escapeHtml(b.event_type.location ?? 'None given')) +
    (b.lead_id ? row('Lead', `<a href="/app/leads/${encodeURIComponent(b.lead_id)}">Open the lead</a>`) : '') +
    (b.value ? row('Value', escapeHtml(formatMoney(Number(b.value.amount), b.value.currency))) : '') +
    row('Booked', escapeHtml(formatDateTime(b.created_at, zone))) +
    (b.rescheduled_at ? row('Moved', escapeHtml(formatDateTime(b.rescheduled_at, zone))) : '') +
    (b.canceled_at
      ? row(
          'Canceled',
          `${escapeHtml(formatDateTime(b.canceled_at, zone))} by ${b.canceled_by === 'invitee' ? 'the invitee' : 'the workspace'}${b.cancel_reason ? `: “${escapeHtml(b.cancel_reason)}”` : ''}`,
        )
      : '') +
    '</dl>'
  );
}

function rescheduleSection(
  ctx: PageContext,
  b: Booking,
  zone: string,
  from: string,
  offered: Answer<Availability> | undefined,
  state: WriteState,
): string {
  const path = bookingPath(b.booking_id);
  const slots = offered?.ok ? offered.body.offered.filter((s) => s.start !== b.start) : [];
  const byDay = new Map<string, OfferedSlot[]>();
  for (const slot of slots) {
    const day = todayIn(zone, new Date(slot.start));
    byDay.set(day, [...(byDay.get(day) ?? []), slot]);
  }
  const refused = state.reschedule;
  const days = [...byDay]
    .map(
      ([day, daySlots]) =>
        `<fieldset class="sched-slot-day"><legend>${escapeHtml(dayLabel(day))}</legend><div class="sched-slots">` +
        daySlots
          .map((slot) => {
            const id = `slot-${slot.start.replace(/[^0-9]/g, '')}`;
            return `<span class="sched-slot"><input type="radio" name="start" id="${id}" value="${escapeHtml(slot.start)}"${refused?.start === slot.start ? ' checked' : ''}><label for="${id}">${escapeHtml(zonedTime(slot.start, zone))}</label></span>`;
          })
          .join('') +
        '</div></fieldset>',
    )
    .join('');
  const week = `${dayLabel(from)} to ${dayLabel(addDays(from, WEEK_DAYS - 1))}`;
  return (
    `<section class="sched-card" id="reschedule" aria-labelledby="reschedule-heading"><h2 id="reschedule-heading">Reschedule</h2>` +
    (refused
      ? `<div class="alert" role="alert"><p>${escapeHtml(refused.message)}</p>${
          refused.nextSlots.length
            ? `<p>Next open: ${refused.nextSlots.map((s) => escapeHtml(zonedDateTime(s.start, zone))).join('; ')}.</p>`
            : ''
        }</div>`
      : '') +
    `<p class="hint">Times ${escapeHtml(b.event_type.name)} offers from ${escapeHtml(week)} (${escapeHtml(zone)}). The invitee keeps the same booking.</p>` +
    '<div class="sched-week-nav">' +
    `<a class="button" href="${path}?from=${addDays(from, -WEEK_DAYS)}#reschedule">← Earlier</a>` +
    `<a class="button" href="${path}?from=${addDays(from, WEEK_DAYS)}#reschedule">Later →</a></div>` +
    (offered && !offered.ok
      ? `<p class="alert" role="alert">${escapeHtml(offered.error.message)}</p>`
      : days
        ? `<form method="post" action="${path}/reschedule">${csrfField(ctx.csrf)}${days}<div class="buttons"><button type="submit" class="primary">Reschedule</button></div></form>`
        : '<p class="empty">No open times this week. Try later.</p>') +
    '</section>'
  );
}

function cancelSection(ctx: PageContext, b: Booking, state: WriteState): string {
  const problems = state.cancel?.problems ?? {};
  return (
    '<section class="sched-card" id="cancel" aria-labelledby="cancel-heading"><h2 id="cancel-heading">Cancel the call</h2>' +
    problemSummary('The call was not canceled:', state.cancel?.all ?? []) +
    `<form method="post" action="${bookingPath(b.booking_id)}/cancel" class="sched-form">${csrfField(ctx.csrf)}` +
    '<div class="sched-field"><label for="f-reason">Reason (optional)</label>' +
    `<textarea id="f-reason" name="reason" maxlength="500"${invalidAttributes('f-reason', problems, 'reason')}>${escapeHtml(state.cancel?.reason ?? '')}</textarea>` +
    fieldError('f-reason', problems, 'reason') +
    '<span class="hint">Kept with the booking for your records. The time becomes open again at once.</span></div>' +
    '<div class="buttons"><button type="submit" class="danger">Cancel booking</button></div></form></section>'
  );
}

export function registerBookingRoutes(scope: FastifyInstance, env: DashboardEnv): void {
  const idOf = (ctx: PageContext) => (ctx.request.params as { booking_id: string }).booking_id;

  dashboardGet(scope, env, '/app/scheduling/bookings/:booking_id', (ctx) => bookingPage(ctx, idOf(ctx)));

  dashboardPost(scope, env, '/app/scheduling/bookings/:booking_id/cancel', async (ctx) => {
    const id = idOf(ctx);
    const reason = (ctx.form.reason ?? '').trim();
    const answer = await ctx.call<Booking>('cancel_booking', { booking_id: id, ...(reason ? { reason } : {}) });
    if (answer.ok) return ctx.redirect('/app/scheduling/bookings?done=canceled');
    if (answer.status !== 400) return ctx.refused(answer);
    const { byControl, all } = problemsOf(answer);
    return bookingPage(ctx, id, { cancel: { reason: ctx.form.reason ?? '', problems: byControl, all } }, 400);
  });

  dashboardPost(scope, env, '/app/scheduling/bookings/:booking_id/reschedule', async (ctx) => {
    const id = idOf(ctx);
    const start = ctx.form.start ?? '';
    if (!start) return bookingPage(ctx, id, { reschedule: { start, message: 'Pick a new time first.', nextSlots: [] } }, 400);
    const answer = await ctx.call<Booking>('reschedule_booking', { booking_id: id, start });
    if (answer.ok) return ctx.redirect(`${bookingPath(id)}?done=rescheduled`);
    const details = answer.error.details as { reason?: string; next_slots?: { start: string }[] } | undefined;
    if (answer.status === 409 && details?.reason === 'slot_not_offered') {
      return bookingPage(
        ctx,
        id,
        { reschedule: { start, message: 'That time is no longer open.', nextSlots: details.next_slots ?? [] } },
        409,
      );
    }
    if (answer.status === 400) return bookingPage(ctx, id, { reschedule: { start, message: answer.error.message, nextSlots: [] } }, 400);
    return ctx.refused(answer);
  });
}
