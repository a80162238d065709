/**
 * An operation's 400 as a form shows it: each problem beside the field it names (details.errors, one
 * { field, problem } each), and the ones no field of the form shows in a list over the form.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { Answer } from '../kit/page-route.ts';

export type FieldProblems = Map<string, string[]>;

export function problemsOf(answer: Answer<unknown>): FieldProblems {
  const problems: FieldProblems = new Map();
  if (answer.ok) return problems;
  const errors = (answer.error.details as { errors?: { field?: string; problem?: string }[] } | undefined)?.errors ?? [];
  for (const error of errors) {
    const field = error.field ?? '';
    problems.set(field, [...(problems.get(field) ?? []), error.problem ?? '']);
  }
  if (problems.size === 0) problems.set('', [answer.error.message]);
  return problems;
}

/** The problems of one field, for under it; its id goes in the input's aria-describedby. */
export function fieldProblem(problems: FieldProblems, field: string, id: string): string {
  const list = problems.get(field);
  if (!list || list.length === 0) return '';
  return `<span class="field-error" id="${escapeHtml(id)}">${list.map(escapeHtml).join('; ')}</span>`;
}

/** The attributes an input with problems carries. */
export function invalidAttributes(problems: FieldProblems, field: string, id: string): string {
  return problems.has(field) ? ` aria-invalid="true" aria-describedby="${escapeHtml(id)}"` : '';
}

/** Problems not shown beside a field of this form (`shown` names the fields it has). */
export function otherProblems(problems: FieldProblems, shown: (field: string) => boolean): string {
  const rest = [...problems.entries()].filter(([field]) => !shown(field));
  if (rest.length === 0) return '';
  return `<div class="alert" role="alert"><ul>${rest
    .flatMap(([field, list]) => list.map((problem) => `<li>${field ? `${escapeHtml(field)}: ` : ''}${escapeHtml(problem)}</li>`))
    .join('')}</ul></div>`;
}

/** "The form has 2 problems", said once at the top of a form sent back. */
export function problemsSummary(problems: FieldProblems): string {
  const count = [...problems.values()].reduce((sum, list) => sum + list.length, 0);
  if (count === 0) return '';
  return `<p class="alert" role="alert">Not saved: ${count === 1 ? 'one problem' : `${count} problems`}, shown beside ${count === 1 ? 'its field' : 'their fields'}.</p>`;
}
