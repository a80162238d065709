/**
 * renderEmail: both parts from one description, everything escaped in the HTML, nothing loaded from
 * elsewhere, the action's link written out in both parts, and only web links as actions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderEmail } from './render-email.ts';

const hostile = '<script>alert(1)</script> "quoted" & \'single\' <img src=x onerror=alert(1)>';

test('the HTML part escapes everything it is given; the text part keeps it as written', () => {
  const { text, html } = renderEmail({
    preheader: hostile,
    heading: `Join ${hostile}`,
    paragraphs: [`Invited by ${hostile}`, 'Second line\nwith a break'],
    action: { label: `Accept ${hostile}`, url: 'https://videos.example.com/i/abc?x=1&y="2"' },
    footer: `Sent to ${hostile}`,
  });
  assert.doesNotMatch(html, /<script|<img|onerror=alert\(1\)>/);
  assert.match(html, /&#60;script&#62;alert\(1\)&#60;\/script&#62; &#34;quoted&#34; &#38; &#39;single&#39;/);
  assert.match(html, /href="https:\/\/videos\.example\.com\/i\/abc\?x=1&#38;y=&#34;2&#34;"/);
  assert.match(html, /Second line<br>with a break/);
  assert.match(text, /^Join <script>alert\(1\)<\/script>/);
  assert.match(text, /Accept <script>.*: https:\/\/videos\.example\.com\/i\/abc\?x=1&y="2"/);
  assert.match(text, /\n--\nSent to /);
  assert.doesNotMatch(text, /<br>|&#/);
});

test('a layout that reads well anywhere: one heading, a language, no remote images, no style sheets', () => {
  const { html, text } = renderEmail({
    heading: 'Sign in to Cuepoint',
    paragraphs: ['Use this link within 15 minutes.'],
    action: { label: 'Sign in', url: 'https://videos.example.com/sign-in/t' },
  });
  assert.match(html, /^<!doctype html><html lang="en" dir="ltr">/);
  assert.match(html, /<title>Sign in to Cuepoint<\/title>/);
  assert.equal(html.match(/<h1\b/g)?.length, 1);
  assert.doesNotMatch(html, /<img|<link|<style|<script|url\(|src=/i);
  assert.match(html, /role="presentation"/);
  assert.equal(html.match(/href="https:\/\/videos\.example\.com\/sign-in\/t"/g)?.length, 2, 'the button and the link written out');
  assert.equal(text, 'Sign in to Cuepoint\n\nUse this link within 15 minutes.\n\nSign in: https://videos.example.com/sign-in/t\n');
});

test('controls that draw nothing are dropped; an action must be a web link', () => {
  const { text, html } = renderEmail({ heading: 'A\u0000B\u0007C', paragraphs: ['tab\tkept'] });
  assert.match(text, /^ABC\n\ntab\tkept\n$/);
  assert.ok(!html.includes('\u0000'));
  for (const url of ['javascript:alert(1)', 'data:text/html,hi', '/relative', 'mailto:a@example.com']) {
    assert.throws(() => renderEmail({ heading: 'x', paragraphs: [], action: { label: 'Go', url } }), /http\(s\) URL/, url);
  }
});
