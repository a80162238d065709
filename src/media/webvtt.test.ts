import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWebVtt } from './webvtt.ts';
import { writeWebVtt } from './webvtt-writer.ts';

test('WebVTT cues become timed plain-text segments; header, notes and styles are skipped', () => {
  const source = [
    'WEBVTT',
    '',
    'NOTE made by ffmpeg',
    '',
    'STYLE',
    '::cue { color: red }',
    '',
    '1',
    '00:00.200 --> 00:01.400 align:start',
    '<i>Welcome</i> to   Cuepoint.',
    '',
    '01:02:03.250 --> 01:02:04.000',
    'Fish &amp; chips &lt;3',
    'second line',
    '',
    '00:05.000 --> 00:06.000',
    '<c.yellow></c>',
    '',
  ].join('\r\n');
  assert.deepEqual(parseWebVtt(source), [
    { start_seconds: 0.2, end_seconds: 1.4, text: 'Welcome to Cuepoint.' },
    { start_seconds: 3723.25, end_seconds: 3724, text: 'Fish & chips <3 second line' },
  ]);
});

test('segments come out in time order, and text with no cues gives none', () => {
  const source = 'WEBVTT\n\n00:03.000 --> 00:04.000\nlater\n\n00:01.000 --> 00:02.000\nearlier\n';
  assert.deepEqual(
    parseWebVtt(source).map((segment) => segment.text),
    ['earlier', 'later'],
  );
  assert.deepEqual(parseWebVtt('WEBVTT\n\n'), []);
  assert.deepEqual(parseWebVtt('not subtitles at all'), []);
});

test('segments written as WebVTT read back the same, markup characters and hours included', () => {
  const segments = [
    { start_seconds: 0, end_seconds: 6, text: 'Q&A <live> with our founders' },
    { start_seconds: 6, end_seconds: 3723.25, text: 'Arrows --> stay text' },
  ];
  const written = writeWebVtt(segments);
  assert.match(
    written,
    /^WEBVTT\n\n00:00:00\.000 --> 00:00:06\.000\nQ&amp;A &lt;live&gt; with our founders\n\n00:00:06\.000 --> 01:02:03\.250\n/,
  );
  assert.deepEqual(parseWebVtt(written), segments);
});
