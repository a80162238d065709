/**
 * A refused form comes back as the form again, each problem beside its field (issue 28). The
 * operation's 400 names the fields in `details.errors`; this reads them and writes the pieces a field
 * needs: `aria-invalid`, `aria-describedby` and the message itself. Shared by the leads and revenue
 * forms, which ask operations whose fields are named the same way.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { Answer } from '../kit/page-route.ts';

/** Problems by the form field they belong to; `''` holds those no field of the form shows. */
export type FormProblems = Record<string, string[]>;

/**
 * The problems of a refused answer, by form field. `fieldOf` maps an operation's field name ("amount",
 * "tags[3]") to the form's ("amount", "tags"); a field the form does not have goes under `''`.
 */
export function problemsOf(
  answer: Answer<unknown> & { ok: false },
  formFields: readonly string[],
  alias: Record<string, string> = {},
): FormProblems {
  const problems: FormProblems = {};
  const details = answer.error.details as { errors?: { field?: string; problem?: string }[] } | undefined;
  const listed = details?.errors ?? [];
  for (const item of listed) {
    const top = (item.field ?? '').split(/[.[/]/)[0] ?? '';
    const field = alias[top] ?? top;
    const key = formFields.includes(field) ? field : '';
    const text = key ? (item.problem ?? 'is not valid') : item.field ? `${item.field}: ${item.problem}` : (item.problem ?? '');
    add(problems, key, text);
  }
  if (listed.length === 0) add(problems, '', answer.error.message);
  return problems;
}

function add(problems: FormProblems, key: string, text: string): void {
  const list = problems[key] ?? [];
  list.push(text);
  problems[key] = list;
}

export function hasProblems(problems: FormProblems): boolean {
  return Object.values(problems).some((list) => list.length > 0);
}

/** The attributes of an input that may have problems: `aria-invalid` and the id of its message. */
export function invalidAttributes(problems: FormProblems, field: string, id: string): string {
  return problems[field]?.length ? ` aria-invalid="true" aria-describedby="${escapeHtml(id)}-error"` : '';
}

/** The message under a field, or nothing. Its words start lowercase in the API ("must be…"), so it is prefixed with the label. */
export function fieldError(problems: FormProblems, field: string, id: string, label: string): string {
  const list = problems[field];
  if (!list?.length) return '';
  return `<span class="field-error" id="${escapeHtml(id)}-error">${list.map((p) => escapeHtml(`${label} ${p.replace(/[.\s]+$/, '')}.`)).join(' ')}</span>`;
}

/** Problems that belong to no field of the form, above it. */
export function formAlert(problems: FormProblems): string {
  const general = problems[''];
  if (!general?.length) return '';
  return `<p class="alert" role="alert">${general.map((p) => escapeHtml(p)).join(' ')}</p>`;
}
