/**
 * The event type's details form (create and edit): the call, when it can be booked, and what it is worth.
 * Values travel as the person typed them; `detailsInput` turns them into the operation's input, sending
 * text that is not a number as it is so the operation names the problem on its field.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { minorUnitDigits } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';
import { checkboxControl, inputControl, selectControl } from './form-controls.ts';
import type { Problems } from './form-problems.ts';
import type { EventType } from './scheduling-types.ts';

export type DetailsValues = Record<string, string>;

const ZONES: readonly string[] = (() => {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

export function detailsValuesOf(type: EventType): DetailsValues {
  return {
    name: type.name,
    duration_minutes: String(type.duration_minutes),
    slot_interval_minutes: String(type.slot_interval_minutes),
    location: type.location ?? '',
    time_zone: type.time_zone,
    buffer_before_minutes: String(type.buffer_before_minutes),
    buffer_after_minutes: String(type.buffer_after_minutes),
    minimum_notice_minutes: String(type.minimum_notice_minutes),
    horizon_days: type.horizon_days === null ? '' : String(type.horizon_days),
    daily_cap: type.daily_cap === null ? '' : String(type.daily_cap),
    value_amount: type.value
      ? (type.value.amount / 10 ** minorUnitDigits(type.value.currency)).toFixed(minorUnitDigits(type.value.currency))
      : '',
    value_currency: type.value?.currency ?? '',
    active: type.active ? 'on' : '',
  };
}

export const NEW_TYPE_VALUES: DetailsValues = {
  name: '',
  duration_minutes: '30',
  slot_interval_minutes: '',
  location: '',
  time_zone: '',
  buffer_before_minutes: '0',
  buffer_after_minutes: '0',
  minimum_notice_minutes: '0',
  horizon_days: '60',
  daily_cap: '',
  value_amount: '',
  value_currency: 'USD',
  active: 'on',
};

/** A whole number as a number; anything else as typed, for the operation to name. */
function whole(text: string | undefined): unknown {
  const trimmed = (text ?? '').trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The operation's input from the form. `create` leaves out what the operation defaults. */
export function detailsInput(form: DetailsValues, mode: 'create' | 'edit'): Record<string, unknown> {
  const input: Record<string, unknown> = {
    name: form.name ?? '',
    duration_minutes: whole(form.duration_minutes),
    buffer_before_minutes: (form.buffer_before_minutes ?? '').trim() === '' ? 0 : whole(form.buffer_before_minutes),
    buffer_after_minutes: (form.buffer_after_minutes ?? '').trim() === '' ? 0 : whole(form.buffer_after_minutes),
    minimum_notice_minutes: (form.minimum_notice_minutes ?? '').trim() === '' ? 0 : whole(form.minimum_notice_minutes),
    // Empty means no limit: the operation takes null for "none".
    horizon_days: (form.horizon_days ?? '').trim() === '' ? null : whole(form.horizon_days),
    daily_cap: (form.daily_cap ?? '').trim() === '' ? null : whole(form.daily_cap),
    location: (form.location ?? '').trim() === '' ? null : form.location,
  };
  if ((form.slot_interval_minutes ?? '').trim() !== '') input.slot_interval_minutes = whole(form.slot_interval_minutes);
  if ((form.time_zone ?? '').trim() !== '') input.time_zone = form.time_zone;
  const amount = (form.value_amount ?? '').trim();
  const currency = (form.value_currency ?? '').trim();
  if (amount === '') input.value = null;
  else {
    const digits = minorUnitDigits(currency || 'USD');
    input.value = {
      amount: /^\d+(\.\d+)?$/.test(amount) ? Math.round(Number(amount) * 10 ** digits) : amount,
      currency,
    };
  }
  if (mode === 'edit') input.active = form.active === 'on';
  return input;
}

/** Where an operation's problem is shown: `value.amount` next to the amount, `weekly_hours.x` elsewhere. */
export function detailsControl(field: string): string {
  if (field === 'value' || field === 'value.amount') return 'value_amount';
  if (field === 'value.currency') return 'value_currency';
  return field.split(/[.[]/)[0] ?? field;
}

export function detailsForm(options: {
  action: string;
  csrf: string;
  values: DetailsValues;
  problems: Problems;
  mode: 'create' | 'edit';
}): string {
  const { values: v, problems } = options;
  const zoneOptions = [
    ...(options.mode === 'create' ? [{ value: '', label: 'The workspace’s time zone' }] : []),
    ...(v.time_zone && !ZONES.includes(v.time_zone) ? [{ value: v.time_zone, label: v.time_zone }] : []),
    ...ZONES.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
  ];
  return (
    `<form method="post" action="${escapeHtml(options.action)}" class="sched-form" novalidate>${csrfField(options.csrf)}` +
    '<fieldset><legend>The call</legend><div class="sched-grid">' +
    inputControl({
      name: 'name',
      label: 'Name',
      value: v.name ?? '',
      problems,
      attributes: 'required maxlength="100"',
      hint: 'Shown on the booking page.',
    }) +
    inputControl({
      name: 'duration_minutes',
      label: 'Length (minutes)',
      type: 'number',
      value: v.duration_minutes ?? '',
      problems,
      attributes: 'min="5" max="1440" required',
    }) +
    inputControl({
      name: 'slot_interval_minutes',
      label: 'Start times every (minutes)',
      type: 'number',
      value: v.slot_interval_minutes ?? '',
      problems,
      attributes: 'min="5" max="1440"',
      hint: options.mode === 'create' ? 'Leave empty to start a call as often as it lasts.' : 'Counted from midnight.',
    }) +
    inputControl({
      name: 'location',
      label: 'Location or meeting link',
      value: v.location ?? '',
      problems,
      attributes: 'maxlength="500"',
      hint: 'An address, a phone number or a link; sent with the confirmation.',
    }) +
    selectControl({
      name: 'time_zone',
      label: 'Time zone',
      value: v.time_zone ?? '',
      problems,
      options: zoneOptions,
      hint: 'Hours and days are read in this zone.',
    }) +
    '</div></fieldset>' +
    '<fieldset><legend>When it can be booked</legend><div class="sched-grid">' +
    inputControl({
      name: 'buffer_before_minutes',
      label: 'Free before each call (minutes)',
      type: 'number',
      value: v.buffer_before_minutes ?? '',
      problems,
      attributes: 'min="0" max="1440"',
    }) +
    inputControl({
      name: 'buffer_after_minutes',
      label: 'Free after each call (minutes)',
      type: 'number',
      value: v.buffer_after_minutes ?? '',
      problems,
      attributes: 'min="0" max="1440"',
    }) +
    inputControl({
      name: 'minimum_notice_minutes',
      label: 'Minimum notice (minutes)',
      type: 'number',
      value: v.minimum_notice_minutes ?? '',
      problems,
      attributes: 'min="0" max="525600"',
      hint: 'How long after now the first slot may start.',
    }) +
    inputControl({
      name: 'horizon_days',
      label: 'Bookable days ahead',
      type: 'number',
      value: v.horizon_days ?? '',
      problems,
      attributes: 'min="0" max="3650"',
      hint: 'Empty: no limit.',
    }) +
    inputControl({
      name: 'daily_cap',
      label: 'Most calls a day',
      type: 'number',
      value: v.daily_cap ?? '',
      problems,
      attributes: 'min="1" max="1000"',
      hint: 'Empty: no cap.',
    }) +
    '</div></fieldset>' +
    '<fieldset><legend>Value in the ledger</legend><div class="sched-grid">' +
    inputControl({
      name: 'value_amount',
      label: 'Value of a booked call',
      value: v.value_amount ?? '',
      problems,
      attributes: 'inputmode="decimal"',
      hint: 'For example 150.00. Empty: no value.',
    }) +
    inputControl({
      name: 'value_currency',
      label: 'Currency',
      value: v.value_currency ?? '',
      problems,
      attributes: 'maxlength="3" autocapitalize="characters"',
      hint: 'ISO 4217, such as USD or EUR.',
    }) +
    '</div></fieldset>' +
    (options.mode === 'edit'
      ? checkboxControl({
          name: 'active',
          label: 'Active: offer slots on the booking page',
          checked: v.active === 'on',
          problems,
          hint: 'An inactive event type offers no slots; its bookings stay.',
        })
      : '') +
    `<div class="buttons"><button type="submit" class="primary">${options.mode === 'create' ? 'Create event type' : 'Save details'}</button></div>` +
    '</form>'
  );
}
