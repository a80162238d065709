/**
 * The controls of the area's forms, written once: a labelled input with its hint and its problems
 * (tied by aria-describedby), a select, a checkbox. Every control keeps the value the person typed, so a
 * refused form comes back as they left it.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { fieldError, type Problems } from './form-problems.ts';

export interface ControlSpec {
  name: string;
  label: string;
  value: string;
  problems: Problems;
  type?: 'text' | 'number' | 'url' | 'time' | 'date';
  hint?: string;
  /** More attributes, written as they are (min, max, required, autocomplete…). */
  attributes?: string;
  /** The id, when a page has the same name twice. */
  id?: string;
}

function describedBy(id: string, hint: boolean, problems: boolean): string {
  const ids = [hint ? `${id}-hint` : '', problems ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ` aria-describedby="${ids.join(' ')}"` : '';
}

export function inputControl(spec: ControlSpec): string {
  const id = spec.id ?? `f-${spec.name}`;
  const invalid = Boolean(spec.problems[spec.name]?.length);
  return (
    `<div class="sched-field"><label for="${escapeHtml(id)}">${escapeHtml(spec.label)}</label>` +
    `<input id="${escapeHtml(id)}" name="${escapeHtml(spec.name)}" type="${spec.type ?? 'text'}" value="${escapeHtml(spec.value)}"` +
    `${spec.attributes ? ` ${spec.attributes}` : ''}${invalid ? ' aria-invalid="true"' : ''}${describedBy(id, Boolean(spec.hint), invalid)}>` +
    (spec.hint ? `<span class="hint" id="${escapeHtml(id)}-hint">${escapeHtml(spec.hint)}</span>` : '') +
    fieldError(id, spec.problems, spec.name) +
    '</div>'
  );
}

export function selectControl(spec: Omit<ControlSpec, 'type'> & { options: { value: string; label: string }[] }): string {
  const id = spec.id ?? `f-${spec.name}`;
  const invalid = Boolean(spec.problems[spec.name]?.length);
  return (
    `<div class="sched-field"><label for="${escapeHtml(id)}">${escapeHtml(spec.label)}</label>` +
    `<select id="${escapeHtml(id)}" name="${escapeHtml(spec.name)}"${spec.attributes ? ` ${spec.attributes}` : ''}${invalid ? ' aria-invalid="true"' : ''}${describedBy(id, Boolean(spec.hint), invalid)}>` +
    spec.options
      .map((o) => `<option value="${escapeHtml(o.value)}"${o.value === spec.value ? ' selected' : ''}>${escapeHtml(o.label)}</option>`)
      .join('') +
    '</select>' +
    (spec.hint ? `<span class="hint" id="${escapeHtml(id)}-hint">${escapeHtml(spec.hint)}</span>` : '') +
    fieldError(id, spec.problems, spec.name) +
    '</div>'
  );
}

export function checkboxControl(spec: { name: string; label: string; checked: boolean; hint?: string; problems: Problems }): string {
  const id = `f-${spec.name}`;
  const invalid = Boolean(spec.problems[spec.name]?.length);
  return (
    `<div class="sched-check"><input id="${id}" name="${escapeHtml(spec.name)}" type="checkbox" value="on"${spec.checked ? ' checked' : ''}` +
    `${invalid ? ' aria-invalid="true"' : ''}${describedBy(id, Boolean(spec.hint), invalid)}>` +
    `<label for="${id}">${escapeHtml(spec.label)}</label>` +
    (spec.hint ? `<span class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</span>` : '') +
    fieldError(id, spec.problems, spec.name) +
    '</div>'
  );
}
