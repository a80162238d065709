/**
 * An operation's 400 names each problem's field (`details.errors`: `weekly_hours.friday[0]`,
 * `value.currency`); a form shows each next to the control it belongs to, and every one in a summary at
 * the top, so a problem whose field has no control of its own is never lost.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { Answer } from '../kit/page-route.ts';
import type { FieldProblem } from './scheduling-types.ts';

export type Problems = Record<string, string[]>;

/** The answer's problems, keyed by the form control each belongs to (`toControl` maps API fields). */
export function problemsOf(
  answer: Answer<unknown> & { ok: false },
  toControl: (field: string) => string = (f) => f,
): {
  byControl: Problems;
  all: FieldProblem[];
} {
  const listed = (answer.error.details as { errors?: FieldProblem[] } | undefined)?.errors;
  const all = Array.isArray(listed) && listed.length > 0 ? listed : [{ field: '', problem: answer.error.message }];
  const byControl: Problems = {};
  for (const problem of all) {
    const control = toControl(problem.field);
    byControl[control] ??= [];
    byControl[control].push(sentence(problem.problem));
  }
  return { byControl, all };
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The summary above a form that was refused: every problem, in the operation's words. */
export function problemSummary(heading: string, all: FieldProblem[]): string {
  if (all.length === 0) return '';
  return (
    `<div class="alert" role="alert"><p><strong>${escapeHtml(heading)}</strong></p><ul>` +
    all.map((p) => `<li>${escapeHtml(p.field ? `${p.field}: ${sentence(p.problem)}` : sentence(p.problem))}</li>`).join('') +
    '</ul></div>'
  );
}

/** The problems of one control, written under it and tied to it by `aria-describedby`. */
export function fieldError(id: string, problems: Problems, control: string): string {
  const list = problems[control];
  if (!list || list.length === 0) return '';
  return `<span class="field-error" id="${escapeHtml(id)}-error">${escapeHtml(list.join(' '))}</span>`;
}

/** The attributes a control with problems carries. */
export function invalidAttributes(id: string, problems: Problems, control: string): string {
  return problems[control]?.length ? ` aria-invalid="true" aria-describedby="${escapeHtml(id)}-error"` : '';
}
