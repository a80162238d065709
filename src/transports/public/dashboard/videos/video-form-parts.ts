/**
 * What the library's forms share: the fields as labelled inputs with their problem beside them, the
 * problems of an operation's 400 keyed by the form field they belong to, and the API's shapes the
 * pages read (declared here: pages import no domain code).
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { Answer } from '../kit/page-route.ts';

export type VideoStatus = 'waiting_upload' | 'processing' | 'ready' | 'failed';

export interface VideoRow {
  video_id: string;
  title: string;
  description: string;
  status: VideoStatus;
  archived: boolean;
  tags: string[];
  folder_id: string | null;
  folder_name: string | null;
  duration_seconds: number | null;
  poster_url: string | null;
  views: number;
  created_at: string;
}

export interface LeadFormView {
  placement: 'before' | 'at_second' | 'end';
  skippable: boolean;
  at_second: number | null;
  fields: string[];
  headline: string;
  button_text: string;
}

export interface VideoDetailView extends VideoRow {
  failure_reason: string | null;
  file_name: string | null;
  source_url: string | null;
  watch_url: string | null;
  stats: { views: number; leads: number };
  lead_form: LeadFormView | null;
}

export interface FolderView {
  folder_id: string;
  name: string;
  video_count: number;
  archived_video_count: number;
}

export interface Pagination {
  total: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** Problems by field, each a sentence; `general` holds what names no field of the form. */
export type Problems = Record<string, string>;

/**
 * The problems of a refused write, keyed by form field: `formField` maps an operation's field name
 * (`title`, `tags/0`, `lead_form.headline`) to the input that carries it; a problem without a field,
 * or another refusal (409, 403 plan_limit), is `general`, in the operation's own words.
 */
export function problemsOf(answer: Answer<unknown> & { ok: false }, formField: (field: string) => string | null): Problems {
  const problems: Problems = {};
  const listed = (answer.error.details as { errors?: { field?: string; problem: string }[] } | undefined)?.errors;
  if (answer.status !== 400 || !Array.isArray(listed) || listed.length === 0) {
    problems.general = answer.error.message;
    return problems;
  }
  for (const { field, problem } of listed) {
    const name = (field && formField(field)) || 'general';
    const sentence = `${problem.charAt(0).toUpperCase()}${problem.slice(1)}${problem.endsWith('.') ? '' : '.'}`;
    problems[name] = problems[name] ? `${problems[name]} ${sentence}` : sentence;
  }
  return problems;
}

/** The operation field's first segment: `tags/0` and `tags.0` are the tags field. */
export function topField(field: string): string {
  return field.replace(/^\//, '').split(/[./[]/)[0] ?? field;
}

/** "onboarding, tour" → ["onboarding", "tour"]: commas separate tags, as the API says. */
export function tagsFrom(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** The id attribute of a field's problem, for aria-describedby. */
const errorId = (id: string) => `${id}-error`;

export function fieldError(id: string, problem: string | undefined): string {
  return problem ? `<span class="field-error" id="${errorId(id)}">${escapeHtml(problem)}</span>` : '';
}

function describedBy(id: string, problem: string | undefined, hint: string | undefined): string {
  const ids = [hint ? `${id}-hint` : '', problem ? errorId(id) : ''].filter(Boolean).join(' ');
  return (ids ? ` aria-describedby="${ids}"` : '') + (problem ? ' aria-invalid="true"' : '');
}

export interface TextField {
  id: string;
  name: string;
  label: string;
  value: string;
  problem?: string;
  hint?: string;
  type?: 'text' | 'url' | 'number' | 'search';
  required?: boolean;
  maxLength?: number;
  /** Extra attributes, written by us (never from input). */
  attributes?: string;
}

export function textField(field: TextField): string {
  const hint = field.hint ? `<span class="hint" id="${field.id}-hint">${escapeHtml(field.hint)}</span>` : '';
  return (
    `<div class="video-field"><label for="${field.id}">${escapeHtml(field.label)}</label>${hint}` +
    `<input id="${field.id}" name="${field.name}" type="${field.type ?? 'text'}" value="${escapeHtml(field.value)}"` +
    (field.required ? ' required' : '') +
    (field.maxLength ? ` maxlength="${field.maxLength}"` : '') +
    (field.attributes ? ` ${field.attributes}` : '') +
    `${describedBy(field.id, field.problem, field.hint)}>` +
    fieldError(field.id, field.problem) +
    '</div>'
  );
}

export function textArea(field: TextField): string {
  const hint = field.hint ? `<span class="hint" id="${field.id}-hint">${escapeHtml(field.hint)}</span>` : '';
  return (
    `<div class="video-field"><label for="${field.id}">${escapeHtml(field.label)}</label>${hint}` +
    `<textarea id="${field.id}" name="${field.name}"${field.maxLength ? ` maxlength="${field.maxLength}"` : ''}` +
    `${describedBy(field.id, field.problem, field.hint)}>${escapeHtml(field.value)}</textarea>` +
    fieldError(field.id, field.problem) +
    '</div>'
  );
}

export function selectField(field: {
  id: string;
  name: string;
  label: string;
  options: readonly (readonly [value: string, label: string])[];
  value: string;
  problem?: string;
  hint?: string;
}): string {
  const hint = field.hint ? `<span class="hint" id="${field.id}-hint">${escapeHtml(field.hint)}</span>` : '';
  return (
    `<div class="video-field"><label for="${field.id}">${escapeHtml(field.label)}</label>${hint}` +
    `<select id="${field.id}" name="${field.name}"${describedBy(field.id, field.problem, field.hint)}>` +
    field.options
      .map(
        ([value, label]) => `<option value="${escapeHtml(value)}"${value === field.value ? ' selected' : ''}>${escapeHtml(label)}</option>`,
      )
      .join('') +
    `</select>${fieldError(field.id, field.problem)}</div>`
  );
}

/** The folders as a select's options, "No folder" first. */
export function folderOptions(folders: readonly FolderView[], none = 'No folder'): [string, string][] {
  return [['', none], ...folders.map((folder) => [folder.folder_id, folder.name] as [string, string])];
}

export function generalProblem(problems: Problems): string {
  return problems.general ? `<p class="alert" role="alert">${escapeHtml(problems.general)}</p>` : '';
}

/** The notice after a write (`?done=…`), in words, announced politely. */
export function doneNotice(done: string | undefined, notices: Record<string, string>): string {
  const text = done ? notices[done] : undefined;
  return text ? `<p class="notice" role="status">${escapeHtml(text)}</p>` : '';
}

const STATUS_WORDS: Record<VideoStatus, string> = {
  waiting_upload: 'Waiting for file',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
};

export function statusBadge(status: VideoStatus, archived = false): string {
  return (
    `<span class="status ${status}">${escapeHtml(STATUS_WORDS[status] ?? status)}</span>` +
    (archived ? ' <span class="badge">Archived</span>' : '')
  );
}

export function statusWords(status: VideoStatus): string {
  return STATUS_WORDS[status] ?? status;
}

/**
 * A media address of this service (a poster) as a path, when it is on the public origin: the page
 * then asks its own origin, whatever name the person reached the dashboard by, as its policy's
 * img-src 'self' expects. Any other address is left as the API gave it.
 */
export function ownPath(url: string, publicUrl: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(publicUrl).origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}
