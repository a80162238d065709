/**
 * The shared input schemas the next domains build on: emails, phones and time zones are checked by
 * the schema, so their problems are listed with every other problem of the request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { AppError } from './errors.ts';
import { validateInput } from './pipeline/validation.ts';
import { Email, Phone, TimeZone, VideoRef } from './schemas.ts';

const Contact = Type.Object(
  { email: Email('Their email.'), phone: Type.Optional(Phone('Their phone.')), zone: Type.Optional(TimeZone('Their zone.')) },
  { additionalProperties: false },
);

function problems(input: unknown): Record<string, string> {
  try {
    validateInput(Contact, input, 'json');
    return {};
  } catch (error) {
    assert.ok(error instanceof AppError);
    const list = (error.details as { errors: { field: string; problem: string }[] }).errors;
    return Object.fromEntries(list.map((p) => [p.field, p.problem]));
  }
}

test('emails, phones and time zones that are fine pass', () => {
  for (const phone of ['+33 6 12 34 56 78', '(555) 010-9999', '+1.555.010.9999', '0612345678']) {
    assert.deepEqual(problems({ email: 'ann@example.com', phone, zone: 'Europe/Paris' }), {}, phone);
  }
  assert.deepEqual(problems({ email: 'a.b+tag@sub.example.co.uk', zone: 'utc' }), {});
  // Emails are taken trimmed: spaces around a pasted address are not a problem, spaces alone are.
  assert.deepEqual(problems({ email: '  Ann@Example.com \t' }), {});
  assert.deepEqual(Object.keys(problems({ email: '   ' })), ['email']);
  assert.deepEqual(Object.keys(problems({ email: 'ann @example.com' })), ['email']);
});

test('bad emails, phones and time zones are all reported at once, each by field', () => {
  assert.deepEqual(problems({ email: 'not an email', phone: 'call me', zone: 'Mars/Olympus' }), {
    email: 'must be an email address, such as name@example.com',
    phone: 'must be a phone number: 6 to 20 digits, with an optional leading + and spaces, dots, dashes or parentheses between them',
    zone: 'must be an IANA time zone name, such as Europe/Paris or UTC',
  });
  assert.deepEqual(Object.keys(problems({ email: `${'a'.repeat(250)}@example.com`, phone: '12345' })).sort(), ['email', 'phone']);
  assert.deepEqual(Object.keys(problems({ email: 'a@example.com', phone: '+1 555 010 9999 1234 5678 9012' })), ['phone']);
  // A short number is told it lacks digits, not characters.
  assert.match(problems({ email: 'a@example.com', phone: '12' }).phone as string, /6 to 20 digits/);
});

test('a video reference is its id and its title, nothing else', () => {
  const ok = { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01', title: 'Product tour' };
  assert.deepEqual(validateInput(VideoRef, { ...ok }, 'json'), ok);
  assert.throws(() => validateInput(VideoRef, { ...ok, views: 3 }, 'json'), AppError);
  assert.throws(() => validateInput(VideoRef, { video_id: 'nope', title: 'x' }, 'json'), AppError);
});
