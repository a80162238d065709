/**
 * A stand-in for an OpenAI-compatible speech-to-text server on 127.0.0.1: it takes
 * `POST /v1/audio/transcriptions` as multipart form data, parsed by the web platform's own parser
 * (so a malformed body fails the test), records what arrived, and answers what the test says:
 * by default OpenAI's `verbose_json`, one segment per request. Closed when the test ends.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { parseCidr } from '../../src/net/address-policy.ts';

export interface ReceivedTranscription {
  path: string;
  authorization: string | undefined;
  /** The text fields of the form, by name. */
  fields: Record<string, string>;
  fileName: string | undefined;
  fileType: string | undefined;
  /** The WAV received, whole. */
  wav: Buffer;
  /** The audio's length, from the WAV's data size (16 kHz, 16-bit mono). */
  audioSeconds: number;
}

/** What to answer (the test may do something first): a status and JSON (or text) body, or `hang` to never answer. */
export type FakeAnswer = { status: number; body: unknown } | 'hang';

export interface FakeTranscriptionServer {
  /** The API base, as CUEPOINT_SPEECH_TO_TEXT_URL takes it: `http://127.0.0.1:<port>/v1`. */
  url: string;
  received: ReceivedTranscription[];
}

/** The allow-list that lets the guard reach the fake server on loopback. */
export const LOOPBACK = [parseCidr('127.0.0.1/32')];

/** OpenAI's verbose_json for a request: one segment from 0.2 s to 0.2 s before the end, saying which request it answers. */
export function verboseJson(request: ReceivedTranscription, index: number, language = 'english') {
  const end = Math.max(0.2, request.audioSeconds - 0.2);
  const text = ` Request ${index + 1} heard this.`;
  return {
    task: 'transcribe',
    language,
    duration: request.audioSeconds,
    text,
    segments: [
      {
        id: 0,
        seek: 0,
        start: 0.2,
        end,
        text,
        tokens: [50364, 1012],
        temperature: 0,
        avg_logprob: -0.25,
        compression_ratio: 1.1,
        no_speech_prob: 0.01,
      },
    ],
  };
}

export async function startFakeTranscriptionServer(
  t: TestContext,
  answer: (request: ReceivedTranscription, index: number) => FakeAnswer | Promise<FakeAnswer> = (request, index) => ({
    status: 200,
    body: verboseJson(request, index),
  }),
): Promise<FakeTranscriptionServer> {
  const received: ReceivedTranscription[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = await parse(req.url ?? '/', req.headers, Buffer.concat(chunks));
    received.push(request);
    const reply = await answer(request, received.length - 1);
    if (reply === 'hang') return;
    res.writeHead(reply.status, { 'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json' });
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, received };
}

async function parse(path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<ReceivedTranscription> {
  const contentType = String(headers['content-type'] ?? '');
  const form = await new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  const fields: Record<string, string> = {};
  let file: File | undefined;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else if (name === 'file') file = value;
  }
  const wav = file ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
  return {
    path,
    authorization: headers.authorization,
    fields,
    fileName: file?.name,
    fileType: file?.type,
    wav,
    audioSeconds: Math.max(0, wav.length - 44) / 32_000,
  };
}
