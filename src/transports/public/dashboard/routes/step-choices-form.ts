/**
 * The form that wires one step (add_route_branches): its question, when to ask it, and up to six
 * choices, each a label and one target (another step, a new step playing a video, a link, the lead
 * form, a booking page, the end card). Every field works without script; routes-editor.js only hides
 * the target fields a choice does not use and checks what the API checks before the form is sent.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { csrfField } from '../kit/page-route.ts';
import { type FieldProblems, fieldProblem, invalidAttributes } from './field-problems.ts';
import type { EventTypeOption, RouteDetail, RouteStep, VideoOption } from './route-types.ts';

export const CHOICE_ROWS = 6;

export const TARGETS = [
  { value: 'step', label: 'Another step' },
  { value: 'new_step', label: 'A new step playing a video' },
  { value: 'url', label: 'A link' },
  { value: 'lead_form', label: 'The lead form' },
  { value: 'booking', label: 'A booking page' },
  { value: 'end', label: 'The end card' },
] as const;

/** One row of the form as typed (or as the step has it now). */
export interface ChoiceRow {
  label: string;
  target: string;
  to_step: string;
  to_video: string;
  url: string;
  event_type: string;
}

export interface StepFormValues {
  question: string;
  ask_at_second: string;
  rows: ChoiceRow[];
}

const blankRow = (): ChoiceRow => ({ label: '', target: '', to_step: '', to_video: '', url: '', event_type: '' });

/** The form filled from what the step has now, blank rows after its choices. */
export function valuesOfStep(step: RouteStep): StepFormValues {
  const rows: ChoiceRow[] = step.choices.map((choice) => ({
    ...blankRow(),
    label: choice.label,
    target: choice.target,
    to_step: choice.to_step_id ?? '',
    url: choice.url ?? '',
    event_type: choice.event_type_id ?? '',
  }));
  while (rows.length < CHOICE_ROWS) rows.push(blankRow());
  return { question: step.question ?? '', ask_at_second: step.ask_at_second === null ? '' : String(step.ask_at_second), rows };
}

/** The form as sent. */
export function valuesOfForm(form: Record<string, string>): StepFormValues {
  const rows: ChoiceRow[] = [];
  for (let i = 0; i < CHOICE_ROWS; i++) {
    rows.push({
      label: form[`label_${i}`] ?? '',
      target: form[`target_${i}`] ?? '',
      to_step: form[`to_step_${i}`] ?? '',
      to_video: form[`to_video_${i}`] ?? '',
      url: form[`url_${i}`] ?? '',
      event_type: form[`event_type_${i}`] ?? '',
    });
  }
  return { question: form.question ?? '', ask_at_second: form.ask_at_second ?? '', rows };
}

/** What add_route_branches is sent, and which row each branch came from (to put its problems back beside it). */
export function branchesOf(values: StepFormValues): { input: Record<string, unknown>; rowOfBranch: number[] } {
  const branches: Record<string, unknown>[] = [];
  const rowOfBranch: number[] = [];
  values.rows.forEach((row, index) => {
    if (row.label.trim() === '' && row.target === '') return;
    const branch: Record<string, unknown> = { label: row.label };
    if (row.target === 'step') branch.to_step_id = row.to_step;
    if (row.target === 'new_step') branch.to_video = row.to_video;
    if (row.target === 'url') branch.url = row.url.trim();
    if (row.target === 'booking') branch.event_type_id = row.event_type;
    if (row.target === 'lead_form') branch.lead_form = true;
    if (row.target === 'end') branch.end = true;
    branches.push(branch);
    rowOfBranch.push(index);
  });
  const input: Record<string, unknown> = { branches };
  if (values.question.trim() !== '') input.question = values.question;
  if (values.ask_at_second.trim() !== '') {
    const seconds = Number(values.ask_at_second);
    input.ask_at_second = Number.isFinite(seconds) ? seconds : values.ask_at_second;
  }
  return { input, rowOfBranch };
}

/** The API names `branches[k].url`; the form's field for it is `url_{row}`. */
export function problemsByFormField(problems: FieldProblems, rowOfBranch: number[]): FieldProblems {
  const mapped: FieldProblems = new Map();
  const add = (field: string, list: string[]) => mapped.set(field, [...(mapped.get(field) ?? []), ...list]);
  for (const [field, list] of problems) {
    const match = /^branches\[(\d+)\](?:\.(\w+))?/.exec(field);
    if (!match) {
      add(field, list);
      continue;
    }
    const row = rowOfBranch[Number(match[1])] ?? 0;
    const part = match[2];
    const name =
      part === 'label'
        ? 'label'
        : part === 'to_step_id'
          ? 'to_step'
          : part === 'to_video'
            ? 'to_video'
            : part === 'url'
              ? 'url'
              : part === 'event_type_id'
                ? 'event_type'
                : 'target';
    add(`${name}_${row}`, list);
  }
  return mapped;
}

function select(
  name: string,
  id: string,
  label: string,
  current: string,
  options: { value: string; label: string }[],
  problems: FieldProblems,
  blank: string,
): string {
  const errorId = `${id}-error`;
  return (
    `<label class="field target-field" for="${id}" data-for="${escapeHtml(name.replace(/_\d+$/, ''))}">${escapeHtml(label)}` +
    `<select id="${id}" name="${name}"${invalidAttributes(problems, name, errorId)}><option value="">${escapeHtml(blank)}</option>` +
    options
      .map((o) => `<option value="${escapeHtml(o.value)}"${o.value === current ? ' selected' : ''}>${escapeHtml(o.label)}</option>`)
      .join('') +
    `</select>${fieldProblem(problems, name, errorId)}</label>`
  );
}

function row(
  index: number,
  value: ChoiceRow,
  route: RouteDetail,
  step: RouteStep,
  videos: VideoOption[],
  eventTypes: EventTypeOption[],
  problems: FieldProblems,
): string {
  const stepOptions = route.steps.map((s, n) => ({
    value: s.step_id,
    label: `Step ${n + 1}: ${s.video.title}${s.step_id === step.step_id ? ' (this step)' : ''}`,
  }));
  const labelError = `label-${index}-error`;
  const targetSelect = select(
    `target_${index}`,
    `target-${index}`,
    'Leads to',
    value.target,
    TARGETS.map((t) => ({ value: t.value, label: t.label })),
    problems,
    'Choose where it leads',
  ).replace('class="field target-field"', 'class="field"');
  return (
    `<fieldset class="choice-row" data-row="${index}"><legend>Choice ${index + 1}</legend><div class="choice-fields">` +
    `<label class="field" for="label-${index}">Label<input type="text" id="label-${index}" name="label_${index}" maxlength="80" value="${escapeHtml(value.label)}"${invalidAttributes(problems, `label_${index}`, labelError)}>` +
    `${fieldProblem(problems, `label_${index}`, labelError)}</label>` +
    targetSelect +
    select(`to_step_${index}`, `to-step-${index}`, 'Step', value.to_step, stepOptions, problems, 'Choose a step') +
    select(
      `to_video_${index}`,
      `to-video-${index}`,
      'Video of the new step',
      value.to_video,
      videos.map((v) => ({ value: v.video_id, label: v.title })),
      problems,
      'Choose a ready video',
    ) +
    `<label class="field target-field" for="url-${index}" data-for="url">Link (https)<input type="url" id="url-${index}" name="url_${index}" maxlength="2000" placeholder="https://" value="${escapeHtml(value.url)}"${invalidAttributes(problems, `url_${index}`, `url-${index}-error`)}>` +
    `${fieldProblem(problems, `url_${index}`, `url-${index}-error`)}</label>` +
    select(
      `event_type_${index}`,
      `event-type-${index}`,
      'Event type',
      value.event_type,
      eventTypes.map((e) => ({ value: e.event_type_id, label: e.name })),
      problems,
      'Choose an event type',
    ) +
    '</div></fieldset>'
  );
}

export function stepChoicesForm(
  csrf: string,
  route: RouteDetail,
  step: RouteStep,
  values: StepFormValues,
  videos: VideoOption[],
  eventTypes: EventTypeOption[],
  problems: FieldProblems,
): string {
  return (
    `<form class="step-form" method="post" action="/app/routes/${escapeHtml(route.route_id)}/steps/${escapeHtml(step.step_id)}" novalidate data-route-editor>${csrfField(csrf)}` +
    `<label class="field" for="question">Question <span class="hint">Shown over the player with the choices, up to 300 characters</span>` +
    `<input type="text" id="question" name="question" maxlength="300" value="${escapeHtml(values.question)}"${invalidAttributes(problems, 'question', 'question-error')}>` +
    `${fieldProblem(problems, 'question', 'question-error')}</label>` +
    `<label class="field narrow-field" for="ask-at">Ask at second <span class="hint">Empty: when the video ends</span>` +
    `<input type="number" id="ask-at" name="ask_at_second" min="0" step="any" inputmode="decimal" value="${escapeHtml(values.ask_at_second)}"${invalidAttributes(problems, 'ask_at_second', 'ask-at-error')}>` +
    `${fieldProblem(problems, 'ask_at_second', 'ask-at-error')}</label>` +
    `<h2>Choices</h2>${fieldProblem(problems, 'branches', 'branches-error')}<p class="hint">One to six. Leave a row empty to drop it. A choice keeping its label keeps its numbers.</p>` +
    values.rows.map((value, index) => row(index, value, route, step, videos, eventTypes, problems)).join('') +
    '<div class="form-problems" role="alert" hidden></div>' +
    '<div class="actions"><button type="submit" class="primary">Save choices</button>' +
    `<a class="button" href="/app/routes/${escapeHtml(route.route_id)}#step-${escapeHtml(step.step_id)}">Cancel</a></div></form>`
  );
}
