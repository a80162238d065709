/**
 * A video's lead form setting (docs/leads-and-outcomes.md, "The lead form"): where the watch and
 * embed pages show it, which fields it asks besides the email, and its words. Stored normalized in
 * `videos.lead_form` (null when off); update_video takes the setting, get_video and the pages read it.
 *
 * The schema checks what it can (placements, bounds, unknown keys); the rules that tie fields to the
 * placement or to the video's length are `leadFormProblems`, reported by update_video with the rest.
 */
import { type Static, Type } from 'typebox';
import type { FieldProblem } from '../../core/errors.ts';
import { NOT_BLANK, Nullable, StringEnum } from '../../core/schemas.ts';

export const LEAD_FORM_PLACEMENTS = ['before', 'at_second', 'end'] as const;
/** Asked on top of the email, which every form asks. */
export const LEAD_FORM_FIELDS = ['first_name', 'last_name', 'phone'] as const;
export type LeadFormField = (typeof LEAD_FORM_FIELDS)[number];

export const LEAD_FORM_DEFAULTS = { headline: 'Want more like this? Leave your email.', button_text: 'Send' } as const;

const Placement = StringEnum(LEAD_FORM_PLACEMENTS, {
  description: 'before: before playback (an email gate); at_second: pauses at at_second; end: when the video ends.',
});
const Fields = Type.Array(StringEnum(LEAD_FORM_FIELDS), {
  maxItems: 3,
  uniqueItems: true,
  description: 'Fields asked besides the email (always asked): first_name, last_name, phone.',
});
const Headline = Type.String({ minLength: 1, maxLength: 120, ...NOT_BLANK, description: 'The form’s heading.' });
const ButtonText = Type.String({ minLength: 1, maxLength: 40, ...NOT_BLANK, description: 'The submit button’s label.' });

/** What update_video accepts: the placement, and only what differs from the defaults. */
export const LeadFormSetting = Type.Object(
  {
    placement: Placement,
    skippable: Type.Optional(Type.Boolean({ description: 'placement before only: the viewer may skip the form (default false).' })),
    at_second: Type.Optional(Type.Number({ minimum: 0, description: 'placement at_second only: the second, within the video.' })),
    fields: Type.Optional(Fields),
    headline: Type.Optional(Headline),
    button_text: Type.Optional(ButtonText),
  },
  { additionalProperties: false, description: 'The lead form the watch and embed pages show; null turns it off.' },
);
export type LeadFormSetting = Static<typeof LeadFormSetting>;

/** The setting as stored and returned: every field present. */
export const LeadForm = Type.Object(
  {
    placement: Placement,
    skippable: Type.Boolean(),
    at_second: Nullable(Type.Number({ minimum: 0 })),
    fields: Type.Array(StringEnum(LEAD_FORM_FIELDS)),
    headline: Type.String(),
    button_text: Type.String(),
  },
  { additionalProperties: false, description: 'The lead form the watch and embed pages show; null when off.' },
);
export type LeadForm = Static<typeof LeadForm>;

/** Problems of a setting the schema accepted, against the placement and the video's length. */
export function leadFormProblems(setting: LeadFormSetting, durationSeconds: number | null, field = 'lead_form'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (setting.skippable !== undefined && setting.placement !== 'before') {
    problems.push({ field: `${field}.skippable`, problem: 'only a form shown before playback can be skippable' });
  }
  if (setting.placement === 'at_second') {
    if (setting.at_second === undefined) {
      problems.push({ field: `${field}.at_second`, problem: 'is required when placement is at_second' });
    } else if (durationSeconds === null) {
      problems.push({ field: `${field}.at_second`, problem: 'the video’s length is not known yet; set it once the video is ready' });
    } else if (setting.at_second >= durationSeconds) {
      problems.push({ field: `${field}.at_second`, problem: `must be within the video: less than its ${durationSeconds} seconds` });
    }
  } else if (setting.at_second !== undefined) {
    problems.push({ field: `${field}.at_second`, problem: 'only applies when placement is at_second' });
  }
  return problems;
}

/** The stored form of a valid setting: defaults filled in, fields in a fixed order. */
export function normalizeLeadForm(setting: LeadFormSetting): LeadForm {
  const asked = new Set(setting.fields ?? []);
  return {
    placement: setting.placement,
    skippable: setting.placement === 'before' ? (setting.skippable ?? false) : false,
    at_second: setting.placement === 'at_second' ? (setting.at_second ?? 0) : null,
    fields: LEAD_FORM_FIELDS.filter((name) => asked.has(name)),
    headline: setting.headline?.trim() ?? LEAD_FORM_DEFAULTS.headline,
    button_text: setting.button_text?.trim() ?? LEAD_FORM_DEFAULTS.button_text,
  };
}

/** The column's value read back (jsonb arrives parsed); null when off. */
export function storedLeadForm(value: unknown): LeadForm | null {
  if (value === null || value === undefined) return null;
  const stored = (typeof value === 'string' ? JSON.parse(value) : value) as LeadForm;
  return normalizeLeadForm({
    placement: stored.placement,
    ...(stored.placement === 'before' ? { skippable: stored.skippable } : {}),
    ...(stored.placement === 'at_second' && stored.at_second !== null ? { at_second: stored.at_second } : {}),
    fields: stored.fields,
    headline: stored.headline,
    button_text: stored.button_text,
  });
}
