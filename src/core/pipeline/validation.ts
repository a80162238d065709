/**
 * One validator for both transports, so a bad input reads the same over REST and MCP. Every problem
 * is reported at once (`allErrors`), named by field, in plain sentences (validation-messages.ts).
 * Query strings need their numbers and booleans coerced; JSON bodies and MCP arguments are taken
 * strictly as sent.
 *
 * The work is bounded before Ajv runs (input-bounds.ts): too deep a value is refused outright, and an
 * array longer than its schema allows is one problem whose items are not looked at. `allErrors` over
 * 250,000 bad items took seconds and answered 25 MB; now the validator only ever sees what fits the
 * schema's sizes, and the answer lists at most 20 problems (AppError.invalid).
 *
 * Fields stored trimmed are trimmed first (trimmed-strings.ts), so the rules judge what is kept, and
 * every string and field name is checked for text the database cannot store (unstorable-text.ts).
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { TObject } from 'typebox';
import { isTimeZone } from '../calendar/time-zone.ts';
import { AppError, type FieldProblem } from '../errors.ts';
import { isCurrencyCode } from '../values/currency.ts';
import { isLanguageTag } from '../values/language-tag.ts';
import { isRealDate, isRealDateTime, isUuid } from '../values/real-instants.ts';
import { oversizedArrays, scanValue, TOO_DEEP } from './input-bounds.ts';
import { trimMarkedStrings } from './trimmed-strings.ts';
import { describeErrors } from './validation-messages.ts';

type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  // Ajv and ajv-formats (CommonJS, some 90 modules) are loaded with the first input to validate, not
  // at start-up (issue 26): a process that has not yet been asked anything need not read them.
  const require = createRequire(import.meta.url);
  const { Ajv } = require('ajv') as typeof import('ajv');
  const addFormats = require('ajv-formats') as AddFormats;
  // verbose: errors carry their schema and value, which the messages need (a pattern's rule, a union's branches).
  const ajv = new Ajv({ allErrors: true, verbose: true, coerceTypes, useDefaults: true, strict: false });
  addFormats(ajv, ['uri', 'email']);
  // Emails are compared and stored trimmed (a pasted " Ada@example.com " is Ada's address), so the
  // format judges the trimmed text; every handler that takes one trims it.
  const email = ajv.formats.email as RegExp;
  ajv.addFormat('email', { type: 'string', validate: (value: string) => email.test(value.trim()) });
  // Stricter than ajv-formats': only real instants and the one uuid form PostgreSQL shares (real-instants.ts).
  ajv.addFormat('date-time', { type: 'string', validate: isRealDateTime });
  ajv.addFormat('date', { type: 'string', validate: isRealDate });
  ajv.addFormat('uuid', { type: 'string', validate: isUuid });
  // Our own: an IANA zone name (schemas.ts TimeZone), so an unknown zone is one more listed problem.
  ajv.addFormat('time-zone', { type: 'string', validate: isTimeZone });
  // An ISO 4217 code the runtime knows (currency.ts), in any case.
  ajv.addFormat('currency', { type: 'string', validate: isCurrencyCode });
  // A BCP 47 tag naming a language the runtime knows (language-tag.ts), in any case.
  ajv.addFormat('language-tag', { type: 'string', validate: isLanguageTag });
  return ajv;
}

let ajvs: { strict: Ajv; coercing: Ajv } | undefined;
const compiled = new WeakMap<TObject, { strict: ValidateFunction; coercing: ValidateFunction }>();

export type InputSource = 'json' | 'query';

/**
 * Validates in place (marked strings are trimmed, defaults filled in) and returns the input, or
 * throws `invalid_request`.
 */
export function validateInput<T>(schema: TObject, input: unknown, source: InputSource, known: FieldProblem[] = []): T {
  const problems = inputProblems(schema, input, source, known);
  if (problems.length > 0) throw AppError.invalid(problems);
  return input as T;
}

/**
 * Every problem of the input's shape (none when valid), trimming marked strings and filling in
 * defaults in place as it checks.
 */
export function inputProblems(schema: TObject, input: unknown, source: InputSource, known: FieldProblem[] = []): FieldProblem[] {
  let validators = compiled.get(schema);
  if (!validators) {
    ajvs ??= { strict: makeAjv(false), coercing: makeAjv(true) };
    validators = { strict: ajvs.strict.compile(schema), coercing: ajvs.coercing.compile(schema) };
    compiled.set(schema, validators);
  }
  const validate = source === 'query' ? validators.coercing : validators.strict;
  // With an oversized array the input is refused anyway; the validator looks at a copy without it.
  // The size check follows the schema, not the value, so it is safe before the depth check.
  const { problems: sizes, bounded } = oversizedArrays(schema, input);
  // Trim first, then validate. Without a copy (nothing oversized), this trims the caller's input.
  trimMarkedStrings(schema, bounded);
  const scan = scanValue(bounded);
  if (scan.tooDeep !== undefined) {
    return [{ field: scan.tooDeep, problem: scan.tooDeep === '' ? `the input ${TOO_DEEP}` : TOO_DEEP }];
  }
  const problems = [...known, ...sizes, ...scan.unstorableText];
  if (validate(bounded) && problems.length === 0) return [];
  const reported = new Set(problems.map((p) => p.field));
  // A field whose name is not well-formed text was reported by the scan, under a name an answer can show.
  const described = describeErrors(validate.errors ?? []).filter((p) => !reported.has(p.field) && p.field.isWellFormed());
  return [...problems, ...described];
}
