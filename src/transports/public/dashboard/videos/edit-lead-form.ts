/**
 * The edit form's values, and its lead form part: where the watch and embed pages ask for an email
 * (off, before playback, at a moment, at the end), which fields they ask besides it, and their words.
 * Only what applies to the chosen placement is sent, so update_video judges what the person meant;
 * the rules that tie the parts together (a moment within the video's length) are the operation's.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { fieldError, type Problems, selectField, textField, type VideoDetailView } from './video-form-parts.ts';

export interface EditValues {
  title: string;
  description: string;
  tags: string;
  folder_id: string;
  /** '' when the form is off. */
  placement: string;
  skippable: boolean;
  at_second: string;
  fields: string[];
  headline: string;
  button_text: string;
}

const PLACEMENTS = [
  ['', 'Off: no lead form'],
  ['before', 'Before playback (an email gate)'],
  ['at_second', 'At a moment in the video'],
  ['end', 'When the video ends'],
] as const;

const FIELDS = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['phone', 'Phone'],
] as const;

export function valuesOf(video: VideoDetailView): EditValues {
  const form = video.lead_form;
  return {
    title: video.title,
    description: video.description,
    tags: video.tags.join(', '),
    folder_id: video.folder_id ?? '',
    placement: form?.placement ?? '',
    skippable: form?.skippable ?? false,
    at_second: form?.at_second === null || form?.at_second === undefined ? '' : String(form.at_second),
    fields: form?.fields ?? [],
    headline: form?.headline ?? '',
    button_text: form?.button_text ?? '',
  };
}

/** update_video's lead_form: null when off; otherwise the placement and what applies to it. */
export function leadFormInput(values: EditValues): Record<string, unknown> | null | string {
  if (values.placement === '') return null;
  const setting: Record<string, unknown> = { placement: values.placement, fields: values.fields };
  if (values.placement === 'before') setting.skippable = values.skippable;
  if (values.placement === 'at_second') {
    // A number when it reads as one; otherwise as typed, for the operation to name the problem.
    const trimmed = values.at_second.trim();
    if (trimmed !== '') setting.at_second = Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
  }
  if (values.headline.trim()) setting.headline = values.headline;
  if (values.button_text.trim()) setting.button_text = values.button_text;
  return setting;
}

export function leadFormSection(values: EditValues, problems: Problems, durationSeconds: number | null): string {
  const chosen = new Set(values.fields);
  const fieldsProblem = problems.fields;
  return (
    '<section class="lead-form" aria-labelledby="lead-form-heading"><h2 id="lead-form-heading">Lead form</h2>' +
    '<p>Ask viewers of the watch and embed pages for their email. Every answer becomes a lead.</p>' +
    selectField({
      id: 'edit-placement',
      name: 'placement',
      label: 'Show the form',
      options: PLACEMENTS,
      value: values.placement,
      problem: problems.placement,
    }) +
    '<div class="lead-part only-before">' +
    `<label class="video-check"><input type="checkbox" name="skippable" id="edit-skippable"${values.skippable ? ' checked' : ''}${problems.skippable ? ' aria-invalid="true" aria-describedby="edit-skippable-error"' : ''}> Viewers may skip it (before playback only)</label>` +
    fieldError('edit-skippable', problems.skippable) +
    '</div><div class="lead-part only-at-second">' +
    textField({
      id: 'edit-at-second',
      name: 'at_second',
      label: 'At second',
      value: values.at_second,
      problem: problems.at_second,
      type: 'number',
      hint:
        durationSeconds === null
          ? 'For “At a moment”: the second the video pauses for the form.'
          : `For “At a moment”: the second the video pauses for the form, below ${Math.floor(durationSeconds)} (the video’s length).`,
      attributes: 'min="0" step="any" inputmode="decimal"',
    }) +
    '</div><div class="lead-part only-on">' +
    `<fieldset class="video-checks"${fieldsProblem ? ' aria-describedby="edit-fields-error"' : ''}><legend>Also ask for</legend>` +
    FIELDS.map(
      ([value, label]) =>
        `<label class="video-check"><input type="checkbox" name="fields" value="${value}"${chosen.has(value) ? ' checked' : ''}> ${escapeHtml(label)}</label>`,
    ).join('') +
    `</fieldset>${fieldError('edit-fields', fieldsProblem)}` +
    textField({
      id: 'edit-headline',
      name: 'headline',
      label: 'Headline',
      value: values.headline,
      problem: problems.headline,
      hint: 'Optional: “Want more like this? Leave your email.” when blank.',
      maxLength: 120,
    }) +
    textField({
      id: 'edit-button-text',
      name: 'button_text',
      label: 'Button text',
      value: values.button_text,
      problem: problems.button_text,
      hint: 'Optional: “Send” when blank.',
      maxLength: 40,
    }) +
    '</div></section>'
  );
}
