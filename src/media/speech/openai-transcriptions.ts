/**
 * Speech-to-text by any server that speaks OpenAI's `POST /audio/transcriptions`: OpenAI itself,
 * whisper.cpp's server, faster-whisper-server, and hosted APIs that copy it. The speech is sent in
 * windows of at most REQUEST_MAX_SECONDS (19 MB of WAV, under the 25 MB hosted APIs accept), cut
 * at pauses (speech-spans.ts), long silences left out, as multipart form data asking for `verbose_json`: segments with
 * their start and end, shifted here by where their window starts. Every request goes through the
 * SSRF guard (src/net/) with a deadline and a cap on the answer; the key is sent as a bearer token
 * and never appears in an error.
 */
import type { Cidr } from '../../net/address-policy.ts';
import type { Lookup } from '../../net/check-url.ts';
import { OutboundRequestError } from '../../net/outbound-error.ts';
import { type BufferedResponse, safeFetchBuffered } from '../../net/safe-fetch.ts';
import type { TranscriptSegment } from '../webvtt.ts';
import { findSpeech, frameLoudness, packWindows, type TimeSpan } from './speech-spans.ts';
import { type RecognisedSpeech, type SpeechToText, SpeechToTextError } from './speech-to-text.ts';
import { readWavLayout, readWavSamples, wavFileOf } from './wav-file.ts';
import { languageTagOf } from './whisper-languages.ts';

export interface TranscriptionServer {
  /** The API's base URL, such as https://api.openai.com/v1; requests go to `<url>/audio/transcriptions`. */
  url: string;
  /** Sent as `Authorization: Bearer <key>`; servers on your own machines often need none. */
  key: string | undefined;
  model: string;
  /** One request, from DNS to the last byte of the answer. */
  timeoutMs: number;
  /** The operator's allow-list for servers on private networks (CUEPOINT_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: readonly Cidr[];
  lookup?: Lookup;
}

export const REQUEST_MAX_SECONDS = 600;
/** Silence longer than this between two spans is not sent (hosted APIs bill by the minute of audio). */
const REQUEST_JOIN_GAP_SECONDS = 30;
const ANSWER_MAX_BYTES = 10 * 1024 * 1024;
const QUOTED_ERROR_MAX_CHARS = 300;

export function openAiTranscriptions(server: TranscriptionServer): SpeechToText {
  const endpoint = `${server.url.replace(/\/+$/, '')}/audio/transcriptions`;
  return {
    description: `http (${server.url}, ${server.model})`,
    async transcribe(wavPath, { signal }) {
      const layout = await readWavLayout(wavPath);
      const loudness = await frameLoudness(wavPath, layout);
      const windows = packWindows(findSpeech(loudness), loudness, {
        maxSeconds: REQUEST_MAX_SECONDS,
        maxGapSeconds: REQUEST_JOIN_GAP_SECONDS,
      });
      const heard: RecognisedSpeech = { language: null, segments: [] };
      for (const window of windows) {
        const samples = await readWavSamples(wavPath, layout, window.startSeconds, window.endSeconds);
        const answer = await requestTranscription(server, endpoint, wavFileOf(samples), signal);
        heard.language ??= languageTagOf(answer.language);
        heard.segments.push(...segmentsIn(answer, window));
      }
      return heard;
    },
  };
}

async function requestTranscription(
  server: TranscriptionServer,
  endpoint: string,
  wav: Buffer,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'speech.wav');
  form.set('model', server.model);
  form.set('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  // The web platform's own multipart encoding (boundary and all), sent through the guard as bytes.
  const encoded = new Request('http://multipart.invalid/', { method: 'POST', body: form });
  const headers: Record<string, string> = {
    'content-type': encoded.headers.get('content-type') as string,
    accept: 'application/json',
    ...(server.key ? { authorization: `Bearer ${server.key}` } : {}),
  };
  let response: BufferedResponse;
  try {
    response = await safeFetchBuffered(endpoint, {
      method: 'POST',
      headers,
      body: new Uint8Array(await encoded.arrayBuffer()),
      timeoutMs: server.timeoutMs,
      maxBytes: ANSWER_MAX_BYTES,
      allowPrivateNetworks: server.allowPrivateNetworks,
      lookup: server.lookup,
      signal,
    });
  } catch (error) {
    throw unreachable(error, server);
  }
  const text = response.body.toString('utf8');
  if (response.status < 200 || response.status > 299) {
    throw new SpeechToTextError(
      withoutKey(`The speech-to-text server answered HTTP ${response.status}${hintFor(response.status)}: ${quoteError(text)}`, server),
    );
  }
  const answer = parseJson(text);
  if (!answer || !Array.isArray(answer.segments)) {
    throw new SpeechToTextError(
      `The speech-to-text server answered without timed segments: it must support response_format=verbose_json (OpenAI's whisper-1 does; its gpt-4o transcription models do not; check CUEPOINT_SPEECH_TO_TEXT_MODEL)`,
    );
  }
  return answer;
}

/** The answer's segments as transcript segments in the video's time, kept within their window. */
function segmentsIn(answer: Record<string, unknown>, window: TimeSpan): TranscriptSegment[] {
  const length = window.endSeconds - window.startSeconds;
  const segments: TranscriptSegment[] = [];
  for (const segment of answer.segments as unknown[]) {
    const { start, end, text } = (segment ?? {}) as { start?: unknown; end?: unknown; text?: unknown };
    if (typeof start !== 'number' || typeof end !== 'number' || typeof text !== 'string' || !text.trim()) continue;
    const from = Math.min(Math.max(start, 0), length);
    const to = Math.min(Math.max(end, from), length);
    segments.push({ start_seconds: inMs(window.startSeconds + from), end_seconds: inMs(window.startSeconds + to), text: text.trim() });
  }
  return segments;
}

function unreachable(error: unknown, server: TranscriptionServer): unknown {
  if (!(error instanceof OutboundRequestError)) return error;
  if (error.reason === 'aborted') return error;
  const hint =
    error.reason === 'blocked_address'
      ? ' (a server on your own network needs its address in CUEPOINT_ALLOW_PRIVATE_NETWORKS)'
      : error.reason === 'timeout'
        ? ` (CUEPOINT_SPEECH_TO_TEXT_TIMEOUT_MS is ${server.timeoutMs})`
        : '';
  return new SpeechToTextError(withoutKey(`The speech-to-text server could not be used: ${error.message}${hint}`, server), {
    cause: error,
  });
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return ' (check CUEPOINT_SPEECH_TO_TEXT_KEY)';
  if (status === 404)
    return ' (check CUEPOINT_SPEECH_TO_TEXT_URL, the base that /audio/transcriptions is added to, and CUEPOINT_SPEECH_TO_TEXT_MODEL)';
  if (status === 413) return ` (it refused ${REQUEST_MAX_SECONDS / 60} minutes of 16 kHz WAV as too large)`;
  if (status === 429 || status >= 500) return ' (it will be tried again)';
  return '';
}

/** What the server said went wrong: OpenAI's `error.message`, FastAPI's `detail`, or the start of the body. */
function quoteError(text: string): string {
  const body = parseJson(text);
  const error = body?.error;
  const said =
    typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string'
      ? (error as { message: string }).message
      : typeof error === 'string'
        ? error
        : typeof body?.detail === 'string'
          ? body.detail
          : text;
  const oneLine = said.replace(/\s+/g, ' ').trim() || 'no message';
  return oneLine.length > QUOTED_ERROR_MAX_CHARS ? `${oneLine.slice(0, QUOTED_ERROR_MAX_CHARS)}…` : oneLine;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function withoutKey(message: string, server: TranscriptionServer): string {
  return server.key ? message.replaceAll(server.key, '[CUEPOINT_SPEECH_TO_TEXT_KEY]') : message;
}

function inMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
