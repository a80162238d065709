/**
 * Uploaded caption files: what real tools write is read (byte order marks, CRLF, headers, notes,
 * styles, identifiers, settings, markup, overlapping and unordered cues, SRT's comma times and
 * formatting), what would garble the words is refused with the line and the problem, and the WebVTT
 * written back out reads as the same segments.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCaptionFile } from './caption-file.ts';
import { writeWebVtt } from './webvtt-writer.ts';

const lines = (...text: string[]) => text.join('\n');

test('a WebVTT file as tools write it becomes timed plain text, in time order', () => {
  const file = [
    '\uFEFFWEBVTT - Product tour',
    'Kind: captions',
    'Language: en',
    '',
    'NOTE exported by an editor,',
    'over two lines',
    '',
    'STYLE',
    '::cue { color: yellow }',
    '',
    'REGION',
    'id:fred width:40%',
    '',
    'intro',
    '00:01.000 --> 00:04.000 align:start position:10%',
    '<v Roger Bingham>Welcome to <i>the</i> tour &amp; thanks',
    'for coming &#x263A;',
    '',
    '00:03.500 --> 00:05.000',
    '<c.yellow>Two people</c> at once <00:04.000>timed',
    '',
    '1:00:00.000 --> 1:00:02.500',
    'An hour in, hours written with one digit',
    '',
    '00:00.200 --> 00:00.900',
    'Earlier, but later in the file',
    '',
    '00:06.000 --> 00:06.000',
    '',
  ].join('\r\n');
  const read = readCaptionFile('webvtt', file, null);
  assert.deepEqual(read.problems, []);
  assert.equal(read.emptyCues, 1);
  assert.deepEqual(read.segments, [
    { start_seconds: 0.2, end_seconds: 0.9, text: 'Earlier, but later in the file' },
    { start_seconds: 1, end_seconds: 4, text: 'Welcome to the tour & thanks for coming ☺' },
    { start_seconds: 3.5, end_seconds: 5, text: 'Two people at once timed' },
    { start_seconds: 3600, end_seconds: 3602.5, text: 'An hour in, hours written with one digit' },
  ]);
});

test('WebVTT read as browsers read it: a header with no empty line after it, a cue with no empty line before it, lone CRs', () => {
  const read = readCaptionFile('webvtt', 'WEBVTT\r00:01.000 --> 00:02.000\rfirst\r00:02.000-->00:03.000\rsecond\r', null);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(
    read.segments.map((segment) => segment.text),
    ['first', 'second'],
  );
});

test('an SRT file as tools write it: numbers, commas, coordinates, formatting, a forgotten blank line, a full stop', () => {
  const file = [
    '\uFEFF1',
    '00:00:01,000 --> 00:00:02,500 X1:100 X2:600 Y1:50 Y2:80',
    '<i>Hello</i> {\\an8}<font color="#ffff00">there</font> <3',
    '',
    '2',
    '00:00:03.5 --> 00:00:04,25',
    'A full stop, and short fractions',
    '7',
    '00:00:05,000 --> 00:00:06,000',
    'Numbered seven, and no blank line before it',
    '',
    '00:00:07,000 --> 00:00:08,000',
    'No number at all',
    '',
    '9',
    '00:00:09,000 --> 00:00:10,000',
    '',
  ].join('\r\n');
  const read = readCaptionFile('srt', file, null);
  assert.deepEqual(read.problems, []);
  assert.equal(read.emptyCues, 1);
  assert.deepEqual(read.segments, [
    { start_seconds: 1, end_seconds: 2.5, text: 'Hello there <3' },
    { start_seconds: 3.5, end_seconds: 4.25, text: 'A full stop, and short fractions' },
    { start_seconds: 5, end_seconds: 6, text: 'Numbered seven, and no blank line before it' },
    { start_seconds: 7, end_seconds: 8, text: 'No number at all' },
  ]);
});

test('WebVTT problems are named with their line, every one of them', () => {
  const file = lines(
    'WEBVTT',
    '',
    '00:01,000 --> 00:02.000',
    'a comma',
    '',
    '00:05.000 --> 00:03.000',
    'backwards',
    '',
    'stray words',
    'in no cue',
    '',
    '00:61.000 --> 00:62.000',
    'sixty-one seconds',
    '',
    '1:02.000 --> 00:03.000',
    'one-digit minutes',
    '',
    'id',
    '00:01.000 -> 00:02.000',
    'a short arrow',
    '',
    '00:01.000 -->',
    'no end',
    '',
    '99:00:00.000 --> 99:00:01.000',
    'too late for any video',
  );
  assert.deepEqual(readCaptionFile('webvtt', file, null).problems, [
    'line 3: "00:01,000" is not a WebVTT time: WebVTT puts a full stop before the milliseconds (00:01.000), SRT a comma',
    'line 6: the cue ends (00:03.000) before it starts (00:05.000)',
    'line 9: text outside any cue ("stray words"): a cue is a timing line, such as 00:01.000 --> 00:04.000, then its text, and an empty line after it',
    'line 12: "00:61.000" is not a time: minutes and seconds go up to 59',
    'line 15: "1:02.000" is not a WebVTT time: write minutes and seconds in two digits and milliseconds in three, with hours before them when there are any, such as 01:02.500 or 1:01:02.500',
    'line 19: "00:01.000 -> 00:02.000" is not a timing line: write the start and end times with "-->" between them, such as 00:01.000 --> 00:04.000',
    'line 22: the timing line has no end time after "-->" (such as 00:01.000 --> 00:04.000)',
    'line 25: "99:00:00.000" is more than 24 hours into the video',
  ]);
});

test('SRT problems are named with their line', () => {
  const file = lines(
    '1',
    '00:00:01,000 - 00:00:02,000',
    'a dash for an arrow',
    '',
    'words before any number',
    '',
    '3',
    'no timing after the number',
    '',
    '4',
    '00:01,000 --> 00:00:02,000',
    'no hours',
  );
  assert.deepEqual(readCaptionFile('srt', file, null).problems, [
    'line 2: "00:00:01,000 - 00:00:02,000" is not a timing line: write the start and end times with "-->" between them, such as 00:00:01,000 --> 00:00:04,000',
    'line 5: text outside any cue ("words before any number"): a cue is its number, a timing line such as 00:00:01,000 --> 00:00:04,000, then its text, and an empty line after it',
    'line 8: cue 3 has no timing line after its number (such as 00:00:01,000 --> 00:00:04,000)',
    'line 11: "00:01,000" is not an SRT time: write hours, minutes, seconds and milliseconds, such as 00:01:02,500',
  ]);
});

test('the wrong format, an empty file, no cues, no words: each said plainly', () => {
  const srt = lines('1', '00:00:01,000 --> 00:00:02,000', 'Hello', '');
  const vtt = lines('WEBVTT', '', '00:01.000 --> 00:02.000', 'Hello', '');
  assert.deepEqual(readCaptionFile('webvtt', srt, null).problems, [
    'line 1: a WebVTT file starts with the line WEBVTT; this one looks like SRT (numbered cues, times with commas): send it with format srt',
  ]);
  assert.deepEqual(readCaptionFile('webvtt', 'Hello there', null).problems, ['line 1: a WebVTT file starts with the line WEBVTT']);
  assert.deepEqual(readCaptionFile('srt', vtt, null).problems, [
    'line 1: this is a WebVTT file (it starts with WEBVTT): send it with format webvtt',
  ]);
  assert.deepEqual(readCaptionFile('srt', ' \r\n\r\n', null).problems, ['the file is empty']);
  assert.deepEqual(readCaptionFile('webvtt', 'WEBVTT\n\nNOTE nothing else\n', null).problems, [
    'the file has no cues: a WebVTT cue is a timing line then its text',
  ]);
  assert.deepEqual(readCaptionFile('srt', '1\n00:00:01,000 --> 00:00:02,000\n\n', null).problems, ["the file's one cue has no words"]);
  assert.deepEqual(
    readCaptionFile('srt', '1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\n<i></i>\n', null).problems,
    ["none of the file's 2 cues has any words"],
  );
});

test('once the video’s length is known, a cue starting after its end is refused; a second of slack is allowed', () => {
  const file = lines('WEBVTT', '', '00:09.500 --> 00:11.000', 'just in time', '', '00:11.200 --> 00:12.000', 'after the end', '');
  assert.deepEqual(readCaptionFile('webvtt', file, 10).problems, [
    'line 6: the cue starts at 00:00:11.200, after the video ends (at 00:00:10.000)',
  ]);
  assert.deepEqual(readCaptionFile('webvtt', file, null).problems, []);
  assert.deepEqual(readCaptionFile('webvtt', file, 11.2).problems, []);
});

test('the WebVTT written for a <track> reads back as the same segments, its markup characters escaped', () => {
  const segments = [
    { start_seconds: 0.25, end_seconds: 1.5, text: 'Fish & chips <3 --> later' },
    { start_seconds: 3723.25, end_seconds: 3724, text: 'An hour\nand more' },
  ];
  const written = writeWebVtt(segments);
  assert.equal(
    written,
    'WEBVTT\n\n00:00:00.250 --> 00:00:01.500\nFish &amp; chips &lt;3 --&gt; later\n\n01:02:03.250 --> 01:02:04.000\nAn hour and more\n',
  );
  const read = readCaptionFile('webvtt', written, null);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.segments, [segments[0], { ...segments[1], text: 'An hour and more' }]);
});
