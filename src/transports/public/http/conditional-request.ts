/**
 * The conditional headers of a GET or HEAD on a stored file, evaluated in RFC 9110 §13.2.2's order
 * against its validators: If-Match (else If-Unmodified-Since) can fail the request (412); then
 * If-None-Match (else If-Modified-Since) can answer 304; If-Range decides whether a Range applies.
 * Every store gives the same answers, the local disk and an object store alike.
 */
import type { StoredFile } from '../../../storage/media-store.ts';

type HeaderValue = string | string[] | undefined;

export interface ConditionalHeaders {
  'if-match'?: HeaderValue;
  'if-none-match'?: HeaderValue;
  'if-modified-since'?: HeaderValue;
  'if-unmodified-since'?: HeaderValue;
  'if-range'?: HeaderValue;
}

export type Precondition = 'proceed' | 'not_modified' | 'failed';

/** Whether a list of entity tags (`*`, or `"a", W/"b"`) names `etag`; weak comparison ignores `W/`. */
export function etagListMatches(list: HeaderValue, etag: string, comparison: 'weak' | 'strong'): boolean {
  if (!list) return false;
  const tags = (Array.isArray(list) ? list.join(',') : list).split(',').map((tag) => tag.trim());
  return tags.some((tag) => {
    if (tag === '*') return true;
    if (comparison === 'strong') return tag === etag && !etag.startsWith('W/');
    return tag.replace(/^W\//, '') === etag.replace(/^W\//, '');
  });
}

export function evaluatePreconditions(headers: ConditionalHeaders, file: StoredFile): Precondition {
  const lastModified = wholeSeconds(file.lastModified);
  if (headers['if-match'] !== undefined) {
    if (!etagListMatches(headers['if-match'], file.etag, 'strong')) return 'failed';
  } else {
    const since = httpDate(headers['if-unmodified-since']);
    if (since !== undefined && lastModified > since) return 'failed';
  }
  if (headers['if-none-match'] !== undefined) {
    if (etagListMatches(headers['if-none-match'], file.etag, 'weak')) return 'not_modified';
  } else {
    const since = httpDate(headers['if-modified-since']);
    if (since !== undefined && lastModified <= since) return 'not_modified';
  }
  return 'proceed';
}

/** Whether a Range may be served: no If-Range, or one that names the current version exactly (§13.1.5). */
export function rangeIsCurrent(ifRange: HeaderValue, file: StoredFile): boolean {
  if (ifRange === undefined) return true;
  const value = Array.isArray(ifRange) ? ifRange.join(',') : ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return etagListMatches(value, file.etag, 'strong');
  const date = httpDate(value);
  return date !== undefined && date === wholeSeconds(file.lastModified);
}

/** HTTP dates have whole seconds; a stored time is compared at that precision. */
function wholeSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function httpDate(value: HeaderValue): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}
