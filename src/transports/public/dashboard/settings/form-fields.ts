/**
 * The settings forms' fields, written one way: a label, the control, a hint, and the problem the
 * operation named for that field (its 400 `details.errors`), tied to the control by aria-describedby
 * so a screen reader reads it with the field.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { Answer } from '../kit/page-route.ts';

/** Field name → what is wrong with it, from an operation's 400 answer. */
export type Problems = Record<string, string>;

/** The problems an answer names, by field; anything not tied to a field comes back under ''. */
export function problemsOf(answer: Answer<unknown> & { ok: false }, fields: readonly string[]): Problems {
  const problems: Problems = {};
  const details = answer.error.details as { errors?: { field?: string; problem?: string }[] } | undefined;
  for (const error of details?.errors ?? []) {
    const field = (error.field ?? '').replace(/^\/+/, '').split(/[./[]/)[0] ?? '';
    const key = fields.includes(field) ? field : '';
    const text = key ? sentence(error.problem ?? 'is not right') : `${error.field ?? ''} ${error.problem ?? ''}`.trim();
    problems[key] = problems[key] ? `${problems[key]} ${text}` : text;
  }
  if (Object.keys(problems).length === 0) problems[''] = answer.error.message;
  return problems;
}

function sentence(problem: string): string {
  const text = problem.charAt(0).toUpperCase() + problem.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

interface FieldSpec {
  id: string;
  name: string;
  label: string;
  value?: string;
  problem?: string;
  hint?: string;
  type?: string;
  required?: boolean;
  /** Extra attributes, already escaped (autocomplete, maxlength, inputmode…). */
  attributes?: string;
}

function described(spec: FieldSpec): { attributes: string; after: string; hint: string } {
  const ids: string[] = [];
  let hint = '';
  let after = '';
  if (spec.hint) {
    ids.push(`${spec.id}-hint`);
    hint = `<span class="hint" id="${spec.id}-hint">${escapeHtml(spec.hint)}</span>`;
  }
  if (spec.problem) {
    ids.push(`${spec.id}-error`);
    after = `<span class="field-error" id="${spec.id}-error">${escapeHtml(spec.problem)}</span>`;
  }
  const attributes =
    (ids.length ? ` aria-describedby="${ids.join(' ')}"` : '') +
    (spec.problem ? ' aria-invalid="true"' : '') +
    (spec.required ? ' required' : '');
  return { attributes, after, hint };
}

export function inputField(spec: FieldSpec): string {
  const { attributes, after, hint } = described(spec);
  return (
    `<div class="field"><label for="${spec.id}">${escapeHtml(spec.label)}</label>${hint}` +
    `<input id="${spec.id}" name="${spec.name}" type="${spec.type ?? 'text'}" value="${escapeHtml(spec.value ?? '')}"${attributes}${spec.attributes ?? ''}>` +
    `${after}</div>`
  );
}

export function textareaField(spec: FieldSpec): string {
  const { attributes, after, hint } = described(spec);
  return (
    `<div class="field"><label for="${spec.id}">${escapeHtml(spec.label)}</label>${hint}` +
    `<textarea id="${spec.id}" name="${spec.name}" rows="5"${attributes}${spec.attributes ?? ''}>${escapeHtml(spec.value ?? '')}</textarea>` +
    `${after}</div>`
  );
}

export function selectField(spec: FieldSpec & { options: readonly { value: string; label: string }[] }): string {
  const { attributes, after, hint } = described(spec);
  return (
    `<div class="field"><label for="${spec.id}">${escapeHtml(spec.label)}</label>${hint}` +
    `<select id="${spec.id}" name="${spec.name}"${attributes}${spec.attributes ?? ''}>` +
    spec.options
      .map(
        (option) =>
          `<option value="${escapeHtml(option.value)}"${option.value === spec.value ? ' selected' : ''}>${escapeHtml(option.label)}</option>`,
      )
      .join('') +
    `</select>${after}</div>`
  );
}

/** A group of checkboxes under one legend (scopes, events), with the problem for the whole group. */
export function checkboxGroup(spec: {
  id: string;
  name: string;
  legend: string;
  hint?: string;
  problem?: string;
  options: readonly { value: string; label: string; description?: string }[];
  checked: ReadonlySet<string>;
}): string {
  const ids = [spec.hint ? `${spec.id}-hint` : '', spec.problem ? `${spec.id}-error` : ''].filter(Boolean).join(' ');
  return (
    `<fieldset class="checks" id="${spec.id}"${ids ? ` aria-describedby="${ids}"` : ''}><legend>${escapeHtml(spec.legend)}</legend>` +
    (spec.hint ? `<p class="hint" id="${spec.id}-hint">${escapeHtml(spec.hint)}</p>` : '') +
    (spec.problem ? `<p class="field-error" id="${spec.id}-error">${escapeHtml(spec.problem)}</p>` : '') +
    '<div class="check-grid">' +
    spec.options
      .map((option, index) => {
        const id = `${spec.id}-${index}`;
        return (
          `<label class="check" for="${id}"><input type="checkbox" id="${id}" name="${spec.name}" value="${escapeHtml(option.value)}"${spec.checked.has(option.value) ? ' checked' : ''}>` +
          `<span><code>${escapeHtml(option.label)}</code>${option.description ? `<span class="hint">${escapeHtml(option.description)}</span>` : ''}</span></label>`
        );
      })
      .join('') +
    '</div></fieldset>'
  );
}

/** The problems no field took, above the form. */
export function formAlert(problems: Problems): string {
  return problems[''] ? `<p class="alert" role="alert">${escapeHtml(problems[''])}</p>` : '';
}
