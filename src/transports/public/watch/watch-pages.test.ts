/**
 * The watch and embed pages through inject(): what they show (escaped titles, poster, token and
 * duration for the player, the adaptive stream when a rendition is ready), their headers (CSP,
 * framing, no caching), the friendly 404 for every video that is not watchable, and the player and
 * playback scripts they load.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { startTestApp, TEST_SECRET } from '../../../../test/helpers/app.ts';
import { addRendition } from '../../../../test/helpers/renditions.ts';
import { saveTranscript } from '../../../domains/transcripts/index.ts';
import { createViewingTokens } from '../../../domains/viewing/index.ts';

const NOW = new Date('2026-11-21T12:00:00.000Z');

/** The value of a data-* attribute in the page, unescaped. */
function dataAttribute(html: string, name: string): string | undefined {
  const match = new RegExp(`data-${name}="([^"]*)"`).exec(html);
  return match?.[1]?.replaceAll('&#38;', '&');
}

test('the watch page shows the video with its title, poster, token and duration', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Product tour', duration_seconds: 42.5, width: 1280, height: 720, has_poster: true });

  const res = await harness.request('GET', `/watch/${videoId}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(res.raw, /^<!doctype html>/);
  assert.match(res.raw, /<title>Product tour<\/title>/);
  assert.match(res.raw, /<h1>Product tour<\/h1>/);
  assert.match(res.raw, new RegExp(`<video [^>]*src="/media/${videoId}"`));
  assert.match(res.raw, new RegExp(`poster="/media/${videoId}/poster.jpg"`));
  assert.match(res.raw, /width="1280" height="720"/);
  assert.match(res.raw, /<script src="\/player.js" defer><\/script>/);
  assert.equal(dataAttribute(res.raw, 'cuepoint-duration'), '42.5');

  const token = dataAttribute(res.raw, 'cuepoint-token') ?? '';
  const check = createViewingTokens(TEST_SECRET).check(token, NOW);
  assert.equal(check.ok, true);
  assert.equal(check.ok && check.videoId, videoId);

  const again = await harness.request('GET', `/watch/${videoId}`);
  const second = createViewingTokens(TEST_SECRET).check(dataAttribute(again.raw, 'cuepoint-token') ?? '', NOW);
  assert.ok(check.ok && second.ok && check.sessionId !== second.sessionId, 'each render is a new session');
});

test('a video with a transcript offers it as captions on the watch and embed pages; one without has no track', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const captioned = await ws.addVideo({ title: 'Captioned' });
  const set = await harness.request('PUT', `/v1/videos/${captioned}/transcript`, {
    token: ws.key,
    body: { format: 'srt', language: 'pt-br', text: '1\n00:00:01,000 --> 00:00:02,000\nOlá\n' },
  });
  assert.equal(set.status, 200, set.raw);
  const track = `<track kind="captions" src="/media/${captioned}/captions.vtt" srclang="pt-BR" label="Português (Brasil)">`;
  for (const kind of ['watch', 'embed']) {
    const res = await harness.request('GET', `/${kind}/${captioned}`);
    assert.equal(res.status, 200);
    assert.ok(res.raw.includes(`controls playsinline>${track}</video>`), `${kind}: ${res.raw}`);
    // The CSP's media-src covers text tracks: our own origin is allowed.
    assert.match(String(res.headers['content-security-policy']), /media-src 'self'/);
  }

  // A transcript whose language is not known (an embedded track without one) is still offered.
  const unlabelled = await ws.addVideo({ title: 'Unlabelled' });
  await saveTranscript(
    harness.database.db,
    ws.id,
    unlabelled,
    { source: 'embedded', language: null, segments: [{ start_seconds: 0, end_seconds: 1, text: 'Hi' }] },
    new Date(),
  );
  const page = await harness.request('GET', `/watch/${unlabelled}`);
  assert.ok(page.raw.includes(`<track kind="captions" src="/media/${unlabelled}/captions.vtt" label="Captions">`), page.raw);

  const plain = await ws.addVideo({ title: 'No words' });
  assert.doesNotMatch((await harness.request('GET', `/watch/${plain}`)).raw, /<track/);
});

test('a video without a poster has no poster attribute', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'No poster' });
  const res = await harness.request('GET', `/watch/${videoId}`);
  assert.equal(res.status, 200);
  assert.doesNotMatch(res.raw, /poster=/);
});

test('hostile titles are escaped everywhere they appear', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const title = `<script>alert(1)</script>" onload="alert(2)' &amp;`;
  const videoId = await ws.addVideo({ title });
  for (const path of [`/watch/${videoId}`, `/embed/${videoId}`]) {
    const res = await harness.request('GET', path);
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.raw, /<script>alert/);
    assert.doesNotMatch(res.raw, /" onload=/);
    assert.equal(res.raw.match(/<script/g)?.length, 1, 'the player script is the only script');
    const escaped = '&#60;script&#62;alert(1)&#60;/script&#62;&#34; onload=&#34;alert(2)&#39; &#38;amp;';
    assert.ok(res.raw.includes(`<title>${escaped}</title>`), path);
    assert.ok(res.raw.includes(`aria-label="${escaped}"`), path);
  }
});

test('headers: a strict CSP without inline scripts, framing only for the embed page, no caching', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo();

  const watch = await harness.request('GET', `/watch/${videoId}`);
  const embed = await harness.request('GET', `/embed/${videoId}`);
  for (const res of [watch, embed]) {
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    assert.match(csp, /media-src 'self'/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'same-origin');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.doesNotMatch(res.raw, /<script>|\son[a-z]+=/, 'no inline script or handler');
  }
  assert.match(String(watch.headers['content-security-policy']), /frame-ancestors 'self'/);
  assert.match(String(embed.headers['content-security-policy']), /frame-ancestors \*/);

  // The hash in the policy is the hash of the page's inline style.
  const { createHash } = await import('node:crypto');
  for (const res of [watch, embed]) {
    const css = /<style>(.*?)<\/style>/.exec(res.raw)?.[1] ?? '';
    const hash = createHash('sha256').update(css).digest('base64');
    assert.ok(String(res.headers['content-security-policy']).includes(`'sha256-${hash}'`));
  }
});

test('the embed page is the bare video: no heading, same token and duration attributes', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Embedded', duration_seconds: 10 });
  const res = await harness.request('GET', `/embed/${videoId}`);
  assert.equal(res.status, 200);
  assert.doesNotMatch(res.raw, /<h1>|<main>/);
  assert.match(res.raw, new RegExp(`<video [^>]*src="/media/${videoId}"`));
  assert.equal(dataAttribute(res.raw, 'cuepoint-duration'), '10');
  assert.equal(createViewingTokens(TEST_SECRET).check(dataAttribute(res.raw, 'cuepoint-token') ?? '', new Date()).ok, true);
});

test('unknown, malformed, unready and archived videos get the friendly HTML 404 page', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const processing = await ws.addVideo({ status: 'processing' });
  const failed = await ws.addVideo({ status: 'failed', failure_reason: 'broken' });
  const waiting = await ws.addVideo({ status: 'waiting_upload' });
  const archived = await ws.addVideo({ archived: true });
  const ids = [
    processing,
    failed,
    waiting,
    archived,
    '7bfac5df-be77-47d9-a5f4-839d87495c70',
    'not-a-uuid',
    processing.toUpperCase(),
    '%3Cscript%3E',
    'x'.repeat(300),
    `${processing}/extra`,
  ];
  for (const kind of ['watch', 'embed']) {
    for (const id of ids) {
      const res = await harness.request('GET', `/${kind}/${id}`);
      assert.equal(res.status, 404, `${kind}/${id}`);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', `${kind}/${id}`);
      assert.match(res.raw, /This video is not available/);
      assert.doesNotMatch(res.raw, /data-cuepoint-token|<script/);
      assert.equal(res.headers['cache-control'], 'no-store');
      const framing = kind === 'embed' ? /frame-ancestors \*/ : /frame-ancestors 'self'/;
      assert.match(String(res.headers['content-security-policy']), framing);
    }
  }
});

test('a video with a ready rendition: the pages name its stream, hold the original back and load the playback script first', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const streamed = await ws.addVideo({ title: 'Streamed', duration_seconds: 30 });
  await addRendition(harness, { workspaceId: ws.id, videoId: streamed }, 'ready', '240p');
  await addRendition(harness, { workspaceId: ws.id, videoId: streamed }, 'processing', '360p');
  for (const kind of ['watch', 'embed']) {
    const res = await harness.request('GET', `/${kind}/${streamed}`);
    assert.equal(res.status, 200);
    // The original stays the src: it plays without a script, and is the fallback.
    assert.match(res.raw, new RegExp(`<video [^>]*src="/media/${streamed}"`));
    assert.equal(dataAttribute(res.raw, 'cuepoint-hls'), `/media/${streamed}/hls/master.m3u8`);
    assert.match(res.raw, / preload="none"/);
    assert.match(
      res.raw,
      /<script src="\/playback.js" data-hls-script="\/vendor\/hls-[\d.]+\.light\.[0-9a-f]{16}\.min\.js" defer><\/script><script src="\/player.js" defer><\/script>/,
    );
    // hls.js plays a MediaSource, whose address is a blob: URL; nothing else widens.
    assert.match(String(res.headers['content-security-policy']), /media-src 'self' blob:; img-src 'self' data:; connect-src 'self';/);
    assert.doesNotMatch(String(res.headers['content-security-policy']), /worker-src|unsafe/);
  }

  // Renditions still being made, or failed, are no stream: the page is as it always was.
  const unready = await ws.addVideo({ title: 'Not yet' });
  await addRendition(harness, { workspaceId: ws.id, videoId: unready }, 'queued', '240p');
  await addRendition(harness, { workspaceId: ws.id, videoId: unready }, 'failed', '360p');
  const res = await harness.request('GET', `/watch/${unready}`);
  assert.equal(dataAttribute(res.raw, 'cuepoint-hls'), undefined);
  assert.match(res.raw, / preload="metadata"/);
  assert.doesNotMatch(res.raw, /playback\.js/);
});

test('GET /playback.js serves the playback script as JavaScript, cacheable for five minutes', async (t) => {
  const harness = await startTestApp(t);
  const res = await harness.request('GET', '/playback.js');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.equal(res.raw, readFileSync(new URL('../assets/playback.js', import.meta.url), 'utf8'));
});

test('GET /player.js serves the player script as JavaScript, cacheable for five minutes', async (t) => {
  const harness = await startTestApp(t);
  const res = await harness.request('GET', '/player.js');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.raw, readFileSync(new URL('../assets/player.js', import.meta.url), 'utf8'));
});

test('a video with a lead form renders it hidden over the player, labelled and escaped; without one, no form', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Gated', duration_seconds: 30 });
  const plain = await harness.request('GET', `/watch/${videoId}`);
  assert.doesNotMatch(plain.raw, /<form/);

  const set = await harness.request('PATCH', `/v1/videos/${videoId}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: 5, fields: ['first_name', 'phone'], headline: '<b>Hi</b> & "welcome"' } },
  });
  assert.equal(set.status, 200, set.raw);
  for (const kind of ['watch', 'embed']) {
    const res = await harness.request('GET', `/${kind}/${videoId}`);
    assert.match(
      res.raw,
      /<form class="cp-lead" hidden novalidate aria-labelledby="cp-lead-title" data-placement="at_second" data-at-second="5"/,
    );
    assert.match(res.raw, /<h2 id="cp-lead-title">&#60;b&#62;Hi&#60;\/b&#62; &#38; &#34;welcome&#34;<\/h2>/);
    assert.match(
      res.raw,
      /<label>Email<input name="email" type="email" autocomplete="email" maxlength="254" required aria-required="true" aria-describedby="cp-lead-status"><\/label>/,
    );
    assert.match(res.raw, /<label>First name<input name="first_name"/);
    assert.match(res.raw, /<label>Phone<input name="phone" type="tel"/);
    assert.doesNotMatch(res.raw, /name="last_name"/);
    assert.match(res.raw, /<p id="cp-lead-status" class="cp-status" role="status" aria-live="polite"><\/p>/);
    assert.match(res.raw, /<input name="first_name"[^>]* aria-describedby="cp-lead-status">/, 'a field marked invalid says why');
    assert.match(res.raw, /<\/form><p class="cp-lead-sent" role="status" aria-live="polite"><\/p>/, 'a sent form is confirmed');
    assert.match(res.raw, /<button type="button" class="cp-dismiss">No thanks<\/button>/);
    assert.doesNotMatch(res.raw, /<script>/, 'no inline script: the CSP allows none');
  }

  await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { lead_form: { placement: 'before' } } });
  const gate = await harness.request('GET', `/watch/${videoId}`);
  assert.match(gate.raw, /data-placement="before" data-dismissable="false"/);
  assert.doesNotMatch(gate.raw, /class="cp-dismiss"/, 'an unskippable gate has no way around it');
  await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { lead_form: { placement: 'before', skippable: true } } });
  assert.match((await harness.request('GET', `/watch/${videoId}`)).raw, /<button type="button" class="cp-dismiss">Skip<\/button>/);
});
