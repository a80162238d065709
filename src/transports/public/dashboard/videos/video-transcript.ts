/**
 * The transcript (get_video_transcript) as timed lines, searched on the server by a GET form (the
 * lines that contain the words, the words marked), and for roles with videos:write the caption upload
 * (set_video_transcript): paste a WebVTT or SRT file, or pick one (videos-captions.js reads it into the
 * field; without script, pasting works). Problems come back next to their field, the text kept.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock, formatDateTime } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';
import type { Part, TranscriptAnswer } from './video-answers.ts';

/** What the caption form held when it was sent back with problems. */
export interface CaptionForm {
  format: string;
  language: string;
  text: string;
  problems: Record<string, string[]>;
}

const SOURCES: Record<string, string> = {
  captions: 'from uploaded captions',
  embedded: 'from the subtitles inside the file',
  speech_to_text: 'transcribed automatically',
};

/** `text` with each occurrence of `words` (case-insensitive) marked, everything escaped. */
export function marked(text: string, words: string): string {
  if (words === '') return escapeHtml(text);
  const lower = text.toLowerCase();
  const needle = words.toLowerCase();
  let out = '';
  let at = 0;
  for (let found = lower.indexOf(needle); found !== -1; found = lower.indexOf(needle, at)) {
    out += `${escapeHtml(text.slice(at, found))}<mark>${escapeHtml(text.slice(found, found + needle.length))}</mark>`;
    at = found + needle.length;
  }
  return out + escapeHtml(text.slice(at));
}

function searchForm(pagePath: string, q: string, keep: Record<string, string>): string {
  return (
    `<form class="filters video-transcript-search" method="get" action="${escapeHtml(pagePath)}#transcript" role="search">` +
    Object.entries(keep)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join('') +
    `<label>Find in the transcript<input type="search" name="q" value="${escapeHtml(q)}"></label><button type="submit">Find</button>` +
    (q ? `<a href="${escapeHtml(pagePath)}#transcript">Clear</a>` : '') +
    '</form>'
  );
}

function lines(transcript: TranscriptAnswer, q: string): string {
  const needle = q.toLowerCase();
  const shown = needle ? transcript.segments.filter((segment) => segment.text.toLowerCase().includes(needle)) : transcript.segments;
  const count = needle
    ? `<p class="video-summary" role="status">${shown.length === 0 ? 'No line says' : `${shown.length} of ${transcript.segments.length} lines say`} “${escapeHtml(q)}”.</p>`
    : '';
  if (shown.length === 0) return count;
  const more =
    transcript.next_offset !== null
      ? '<p class="hint">The transcript is long: the first part is shown. The API pages through the rest.</p>'
      : '';
  return (
    count +
    '<ol class="video-cues">' +
    shown
      .map(
        (segment) =>
          `<li><span class="video-cue-time" data-seek="${Math.floor(segment.start_seconds)}">${formatClock(segment.start_seconds)}</span><span>${marked(segment.text, q)}</span></li>`,
      )
      .join('') +
    `</ol>${more}`
  );
}

function problemsOf(form: CaptionForm | undefined, field: string): string[] {
  return form?.problems[field] ?? [];
}

function fieldError(id: string, problems: string[]): string {
  if (problems.length === 0) return '';
  return `<span class="field-error" id="${id}-error">${problems.map(escapeHtml).join('<br>')}</span>`;
}

function invalid(id: string, problems: string[]): string {
  return problems.length > 0 ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
}

/** The caption upload form, for a person whose role may write videos. */
export function captionForm(videoId: string, csrf: string, form: CaptionForm | undefined, language: string | null): string {
  const format = form?.format ?? 'webvtt';
  const formatProblems = problemsOf(form, 'format');
  const languageProblems = problemsOf(form, 'language');
  const textProblems = problemsOf(form, 'text');
  const other = problemsOf(form, '');
  return (
    `<form class="fields video-captions" method="post" action="/app/videos/${escapeHtml(videoId)}/captions" aria-labelledby="captions-heading">` +
    `<h3 id="captions-heading">Upload captions</h3>` +
    '<p class="hint">They replace the transcript: the player’s captions, search and the API then use these words.</p>' +
    (other.length > 0 ? `<p class="alert" role="alert">${other.map(escapeHtml).join(' ')}</p>` : '') +
    (form ? '<p class="alert" role="alert">The captions were not saved: see the problems below.</p>' : '') +
    csrfField(csrf) +
    '<label class="video-caption-file" hidden>Caption file<input type="file" id="caption-file" accept=".vtt,.srt,text/vtt"><span class="hint">A .vtt or .srt file: it is read into the field below.</span></label>' +
    `<label for="caption-format">Format<select id="caption-format" name="format"${invalid('caption-format', formatProblems)}>` +
    `<option value="webvtt"${format === 'webvtt' ? ' selected' : ''}>WebVTT (.vtt)</option><option value="srt"${format === 'srt' ? ' selected' : ''}>SRT (.srt)</option></select>` +
    `${fieldError('caption-format', formatProblems)}</label>` +
    `<label for="caption-language">Spoken language<input id="caption-language" type="text" name="language" value="${escapeHtml(form?.language ?? language ?? 'en')}" autocomplete="off" spellcheck="false"${invalid('caption-language', languageProblems)}>` +
    `<span class="hint">A language tag: en, en-US, pt-BR.</span>${fieldError('caption-language', languageProblems)}</label>` +
    `<label for="caption-text">Captions<textarea id="caption-text" name="text" rows="8" spellcheck="false" placeholder="WEBVTT&#10;&#10;00:00.500 --&#62; 00:03.000&#10;Welcome to the tour."${invalid('caption-text', textProblems)}>${escapeHtml(form?.text ?? '')}</textarea>` +
    `<span class="hint">The whole file, pasted.</span>${fieldError('caption-text', textProblems)}</label>` +
    '<button type="submit" class="primary">Save captions</button></form>'
  );
}

export function transcriptPart(
  answer: Part<TranscriptAnswer> | undefined,
  options: { pagePath: string; q: string; keep: Record<string, string>; timeZone: string; upload: string },
): string {
  let body: string;
  if (!answer) {
    body = '<p class="empty">Your role does not show transcripts.</p>';
  } else if (!answer.ok) {
    body =
      answer.status === 404
        ? '<p class="empty">No transcript yet. Upload captions, or let speech to text write one when the video is processed.</p>'
        : `<p class="empty">${escapeHtml(answer.message)}</p>`;
  } else {
    const transcript = answer.body;
    const about = `${transcript.segments.length} lines, ${SOURCES[transcript.source] ?? transcript.source}${transcript.language ? `, language ${transcript.language}` : ''}; updated ${formatDateTime(transcript.updated_at, options.timeZone)}.`;
    body = `<p class="hint">${escapeHtml(about)}</p>${searchForm(options.pagePath, options.q, options.keep)}${lines(transcript, options.q)}`;
  }
  return `<div class="video-transcript"><div>${body}</div>${options.upload ? `<div>${options.upload}</div>` : ''}</div>`;
}
