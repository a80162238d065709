/**
 * set_video_transcript over HTTP: captions in both formats become the transcript (and its search
 * rows, replaced whole), get_video and list_videos say so, a repeat changes nothing, malformed files
 * are refused naming each line and problem (with the request's other problems in the same answer),
 * the size limits, the scope, another workspace's video, and machine transcripts never replacing
 * uploaded captions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { saveTranscript } from '../transcripts.queries.ts';

const WEBVTT = [
  '\uFEFFWEBVTT',
  'Kind: captions',
  '',
  'NOTE made by a captioning service',
  '',
  'cue-1',
  '00:00.500 --> 00:03.000 line:90%',
  '<v Ada>Welcome to the <b>product</b> tour.',
  '',
  '00:03.000 --> 00:06.250',
  'Pricing starts on the second screen.',
  '',
  '00:07.000 --> 00:07.500',
  '',
].join('\r\n');

const SRT = [
  '1',
  '00:00:01,000 --> 00:00:04,000',
  'Olá, bem-vindos.',
  '',
  '2',
  '00:00:04,000 --> 00:00:08,500',
  '<i>Os preços</i> estão aqui.',
  '',
].join('\n');

async function segmentRows(harness: TestApp, workspaceId: string, videoId: string) {
  return harness.database.db
    .selectFrom('transcript_segments')
    .select(['position', 'start_seconds', 'end_seconds', 'text', 'search_config'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .orderBy('position')
    .execute();
}

async function transcriptEvents(harness: TestApp, workspaceId: string) {
  const rows = await harness.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('sequence')
    .execute();
  return rows
    .map((row) => ({ type: row.type, data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data }))
    .filter((event) => event.type === 'video.updated' && event.data.changed.includes('transcript'));
}

test('WebVTT captions become the transcript: its text, its search rows, get_video, list_videos and a video.updated event', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Tour', duration_seconds: 30 });

  const set = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
    token: ws.key,
    body: { format: 'webvtt', language: 'en-us', text: WEBVTT },
  });
  assert.equal(set.status, 200, set.raw);
  const summary = {
    source: 'captions',
    language: 'en-US',
    segments: 2,
    captions_url: `http://localhost:3000/media/${videoId}/captions.vtt`,
  };
  const { updated_at: updatedAt, ...rest } = set.body;
  assert.deepEqual(rest, { video_id: videoId, ...summary, total_chars: 65, empty_cues_skipped: 1, changed: true });
  assert.ok(!Number.isNaN(Date.parse(updatedAt)));

  const read = await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key });
  assert.equal(read.status, 200, read.raw);
  assert.equal(read.body.source, 'captions');
  assert.equal(read.body.text, 'Welcome to the product tour. Pricing starts on the second screen.');
  assert.equal(read.body.total_chars, 65);
  assert.deepEqual(read.body.segments, [
    { start_seconds: 0.5, end_seconds: 3, text: 'Welcome to the product tour.' },
    { start_seconds: 3, end_seconds: 6.25, text: 'Pricing starts on the second screen.' },
  ]);
  assert.deepEqual(await segmentRows(harness, ws.id, videoId), [
    { position: 0, start_seconds: 0.5, end_seconds: 3, text: 'Welcome to the product tour.', search_config: 'english' },
    { position: 1, start_seconds: 3, end_seconds: 6.25, text: 'Pricing starts on the second screen.', search_config: 'english' },
  ]);

  const video = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.deepEqual(video.body.transcript, { ...summary, updated_at: updatedAt });
  assert.equal(video.body.updated_at, updatedAt, 'the video changed with its transcript');
  const listed = await harness.request('GET', '/v1/videos', { token: ws.key });
  assert.deepEqual(listed.body.videos[0].transcript, { ...summary, updated_at: updatedAt });

  const events = await transcriptEvents(harness, ws.id);
  assert.equal(events.length, 1);
  assert.deepEqual(events[0]?.data.changed, ['transcript']);
  assert.deepEqual(events[0]?.data.video.transcript, { ...summary, updated_at: updatedAt });
});

test('SRT captions replace the transcript and its search rows; the same file again writes nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 30 });
  const put = (body: Record<string, unknown>) => harness.request('PUT', `/v1/videos/${videoId}/transcript`, { token: ws.key, body });

  assert.equal((await put({ format: 'webvtt', language: 'en', text: WEBVTT })).status, 200);
  const replaced = await put({ format: 'srt', language: 'pt-BR', text: SRT });
  assert.equal(replaced.status, 200, replaced.raw);
  assert.equal(replaced.body.language, 'pt-BR');
  assert.equal(replaced.body.segments, 2);
  assert.equal(replaced.body.changed, true);
  assert.deepEqual(await segmentRows(harness, ws.id, videoId), [
    { position: 0, start_seconds: 1, end_seconds: 4, text: 'Olá, bem-vindos.', search_config: 'portuguese' },
    { position: 1, start_seconds: 4, end_seconds: 8.5, text: 'Os preços estão aqui.', search_config: 'portuguese' },
  ]);
  const read = await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key });
  assert.equal(read.body.text, 'Olá, bem-vindos. Os preços estão aqui.');

  const again = await put({ format: 'srt', language: 'pt-br', text: SRT.replaceAll('\n', '\r\n') });
  assert.equal(again.status, 200, again.raw);
  assert.equal(again.body.changed, false);
  assert.equal(again.body.updated_at, replaced.body.updated_at);
  assert.equal((await transcriptEvents(harness, ws.id)).length, 2, 'one event for each change, none for the repeat');
  // Another language for the same words is a change: it is searched with another stemmer.
  const relabelled = await put({ format: 'srt', language: 'pt-PT', text: SRT });
  assert.equal(relabelled.body.changed, true);
  assert.equal((await transcriptEvents(harness, ws.id)).length, 3);
});

test('a malformed file is refused naming each line and problem, with the request’s other problems, and nothing is written', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 10 });
  const put = (body: Record<string, unknown>) => harness.request('PUT', `/v1/videos/${videoId}/transcript`, { token: ws.key, body });

  const broken = [
    'WEBVTT',
    '',
    '00:01.000 --> 00:00.500',
    'backwards',
    '',
    '00:02.000 --> 00:03.000',
    'fine',
    '',
    '00:12.000 --> 00:13.000',
    'late',
  ];
  const refused = await put({ format: 'webvtt', language: 'en', text: broken.join('\n') });
  assert.equal(refused.status, 400, refused.raw);
  assert.equal(refused.body.error.code, 'invalid_request');
  assert.deepEqual(refused.body.error.details.errors, [
    { field: 'text', problem: 'line 3: the cue ends (00:00.500) before it starts (00:01.000)' },
    { field: 'text', problem: 'line 9: the cue starts at 00:00:12.000, after the video ends (at 00:00:10.000)' },
  ]);
  assert.match(refused.body.error.message, /^The request has 2 problems: text: line 3: the cue ends/);

  // The file's problems come with the schema's, in one answer.
  const both = await put({ format: 'webvtt', language: 'english', text: 'not captions' });
  assert.equal(both.status, 400);
  assert.deepEqual(both.body.error.details.errors, [
    { field: 'language', problem: 'must be a BCP 47 language tag naming a known language, such as en, en-US or pt-BR' },
    { field: 'text', problem: 'line 1: a WebVTT file starts with the line WEBVTT' },
  ]);
  const wrongFormat = await put({ format: 'webvtt', language: 'en', text: SRT });
  assert.deepEqual(wrongFormat.body.error.details.errors, [
    {
      field: 'text',
      problem:
        'line 1: a WebVTT file starts with the line WEBVTT; this one looks like SRT (numbered cues, times with commas): send it with format srt',
    },
  ]);
  const noFormat = await put({ language: 'en', text: SRT });
  assert.deepEqual(noFormat.body.error.details.errors, [{ field: 'format', problem: 'is required' }]);

  // Past 20 problems, the answer lists 20 and counts the rest.
  const many = ['WEBVTT', ''];
  for (let i = 0; i < 25; i++) many.push(`00:0${(i % 9) + 1}.000 --> 00:00.000`, `cue ${i}`, '');
  const crowded = await put({ format: 'webvtt', language: 'en', text: many.join('\n') });
  assert.equal(crowded.status, 400);
  assert.equal(crowded.body.error.details.errors.length, 20);
  assert.equal(crowded.body.error.details.more_errors, 5);
  assert.deepEqual(crowded.body.error.details.errors[0], {
    field: 'text',
    problem: 'line 3: the cue ends (00:00.000) before it starts (00:01.000)',
  });

  const none = await harness.database.db.selectFrom('video_transcripts').select('video_id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(none, []);
  assert.deepEqual(await transcriptEvents(harness, ws.id), []);
});

test('limits: a million characters at most, a body of 1 MiB, an empty file refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo();
  const put = (body: Record<string, unknown>) => harness.request('PUT', `/v1/videos/${videoId}/transcript`, { token: ws.key, body });

  const cue = '00:00:01,000 --> 00:00:02,000\nA line of words long enough to fill a caption file quickly.\n\n';
  const atMost = cue.repeat(Math.floor(1_000_000 / cue.length));
  const accepted = await put({ format: 'srt', language: 'en', text: atMost });
  assert.equal(accepted.status, 200, accepted.raw.slice(0, 500));
  assert.equal(accepted.body.segments, Math.floor(1_000_000 / cue.length));

  const over = await put({ format: 'srt', language: 'en', text: `${atMost}${'x'.repeat(1_000_001 - atMost.length)}` });
  assert.equal(over.status, 400);
  assert.deepEqual(over.body.error.details.errors, [{ field: 'text', problem: 'must be at most 1,000,000 characters long' }]);

  const huge = await put({ format: 'srt', language: 'en', text: 'é'.repeat(600_000) });
  assert.equal(huge.status, 413);
  assert.equal(huge.body.error.code, 'payload_too_large');

  const empty = await put({ format: 'srt', language: 'en', text: '' });
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.details.errors[0].field, 'text');
  const blank = await put({ format: 'srt', language: 'en', text: '\n \n' });
  assert.deepEqual(blank.body.error.details.errors, [{ field: 'text', problem: 'the file is empty' }]);
});

test('scope and tenancy: videos:write is needed, and another workspace’s video is not found and keeps its transcript', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const theirs = await other.addVideo();
  const body = { format: 'webvtt', language: 'en', text: WEBVTT };
  assert.equal((await harness.request('PUT', `/v1/videos/${theirs}/transcript`, { token: other.key, body })).status, 200);

  const foreign = await harness.request('PUT', `/v1/videos/${theirs}/transcript`, {
    token: ws.key,
    body: { ...body, format: 'srt', text: SRT },
  });
  assert.equal(foreign.status, 404, foreign.raw);
  assert.equal(foreign.body.error.code, 'not_found');
  const kept = await harness.request('GET', `/v1/videos/${theirs}/transcript`, { token: other.key });
  assert.equal(kept.body.text, 'Welcome to the product tour. Pricing starts on the second screen.');

  const mine = await ws.addVideo();
  const reader = await ws.mintKey({ scopes: ['videos:read', 'transcripts:read'] });
  const forbidden = await harness.request('PUT', `/v1/videos/${mine}/transcript`, { token: reader.key, body });
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.body.error.details.required_scope, 'videos:write');
});

test('captions may be set before processing has measured the video, and what processing finds later does not replace them', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ status: 'processing', duration_seconds: null });
  const set = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
    token: ws.key,
    body: { format: 'srt', language: 'en', text: '1\n05:00:00,000 --> 05:00:02,000\nLate in a long video\n' },
  });
  assert.equal(set.status, 200, set.raw);
  assert.equal(set.body.captions_url, null, 'no public captions until the video is served');

  const embedded = { source: 'embedded' as const, language: 'en', segments: [{ start_seconds: 0, end_seconds: 1, text: 'From the file' }] };
  const db = harness.database.db;
  assert.equal(await saveTranscript(db, ws.id, videoId, embedded, new Date()), false);
  const read = await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key });
  assert.equal(read.body.source, 'captions');
  assert.equal(read.body.text, 'Late in a long video');
  assert.equal((await segmentRows(harness, ws.id, videoId))[0]?.text, 'Late in a long video');

  // A machine transcript does replace another machine transcript.
  const plain = await ws.addVideo();
  assert.equal(await saveTranscript(db, ws.id, plain, embedded, new Date()), true);
  const recognised = { source: 'speech_to_text' as const, language: 'en', segments: [{ start_seconds: 0, end_seconds: 2, text: 'Heard' }] };
  assert.equal(await saveTranscript(db, ws.id, plain, recognised, new Date()), true);
  assert.deepEqual(
    (await segmentRows(harness, ws.id, plain)).map((row) => row.text),
    ['Heard'],
  );
});

test('captions_url is only given while the video is public; get_video says null without a transcript', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ archived: true });
  const bare = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(bare.body.transcript, null);
  await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
    token: ws.key,
    body: { format: 'webvtt', language: 'en', text: WEBVTT },
  });
  const archived = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(archived.body.transcript.source, 'captions');
  assert.equal(archived.body.transcript.captions_url, null);
});
