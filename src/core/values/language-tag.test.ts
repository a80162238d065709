import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalLanguageTag, languageLabel } from './language-tag.ts';

test('language tags are stored in canonical form; anything that names no known language is refused', () => {
  const accepted: [string, string][] = [
    ['en', 'en'],
    ['EN-us', 'en-US'],
    ['pt-br', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['yue', 'yue'],
    ['iw', 'he'],
  ];
  for (const [tag, canonical] of accepted) assert.equal(canonicalLanguageTag(tag), canonical, tag);
  for (const tag of [
    'english',
    'English',
    'xx',
    'und',
    'en-XX',
    'en_US',
    'en-',
    '-en',
    'x-private',
    'i-klingon',
    'e',
    `en-${'a'.repeat(40)}`,
  ]) {
    assert.equal(canonicalLanguageTag(tag), undefined, tag);
  }
});

test('a caption track is labelled with its language’s name in that language', () => {
  assert.equal(languageLabel('en'), 'English');
  assert.equal(languageLabel('fr'), 'Français');
  assert.equal(languageLabel('pt-BR'), 'Português (Brasil)');
});
