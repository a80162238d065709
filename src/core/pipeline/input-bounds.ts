/**
 * Cheap checks that run before the schema validator, so the work spent on a bad input and the size
 * of the answer depend on what the schema accepts, not on what was sent (DESIGN §7):
 *
 * - in JSON text, before it is parsed: nesting deeper than MAX_NESTING_DEPTH, and an array or
 *   object of more than MAX_MEMBERS members. Parsing 1 MB of `[[[[…` takes a second, and 50,000
 *   fields cost hundreds of milliseconds to parse, copy and check (MCP's SDK copies its arguments);
 *   no input of this API comes near either limit;
 * - in parsed values (MCP over stdio, where there is no text to scan), nesting, in a loop: no walk
 *   here is recursive, so no input can overflow the stack;
 * - an array longer than its schema's `maxItems` is reported once, by its length, and its items are
 *   not examined: 250 bad ids are one problem, not 250; likewise an object with more unknown
 *   fields than an answer lists;
 * - strings and field names PostgreSQL cannot store are named (unstorable-text.ts): U+0000, and
 *   text that is not well-formed UTF-16 (a lone surrogate).
 */
import { type FieldProblem, MAX_LISTED_PROBLEMS } from '../errors.ts';
import { keyProblem, printableKey, textProblem } from './unstorable-text.ts';

/** Far above any input of this API (a few levels) and of MCP's envelope around it (three more). */
export const MAX_NESTING_DEPTH = 32;

/** Far above any array or object an input takes (the longest `maxItems` is 50); a test keeps it so. */
export const MAX_MEMBERS = 1_000;

export const TOO_DEEP = `nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep; no input of this API needs more than a few levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * What is wrong with the shape of JSON text, as a problem of "the body", or undefined; it stops
 * reading at the first thing wrong. Strings are skipped; the text is not otherwise checked (the
 * parser does that).
 */
export function jsonTextProblem(text: string): string | undefined {
  // Per open level: its kind and how many commas it has held so far.
  const kinds = new Uint8Array(MAX_NESTING_DEPTH + 1);
  const commas = new Uint32Array(MAX_NESTING_DEPTH + 1);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_NESTING_DEPTH) return `the body ${TOO_DEEP}`;
      kinds[depth] = c;
      commas[depth] = 0;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA && depth > 0 && ++(commas[depth] as number) >= MAX_MEMBERS) {
      const what =
        kinds[depth] === OPEN_ARRAY
          ? `an array of more than ${count(MAX_MEMBERS)} items`
          : `an object of more than ${count(MAX_MEMBERS)} fields`;
      return `the body holds ${what}; no input of this API takes more than a few dozen`;
    }
  }
  return undefined;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

export interface ValueScan {
  /** The top-level field under which the value nests deeper than the limit ('' for the value itself). */
  tooDeep?: string;
  /** Strings and field names the database cannot store (U+0000, lone surrogates), named by field. */
  unstorableText: FieldProblem[];
}

/**
 * One loop over a parsed value (never recursion, so no value can overflow the stack): whether it
 * nests deeper than the limit (the value itself is level 1, as `{` is in JSON text), and which
 * strings and field names cannot be stored. Every string of every input passes here, whatever the
 * schema says of it, so no field can be forgotten. Field names are spelt out only for what is reported.
 */
export function scanValue(value: unknown): ValueScan {
  const unstorableText: FieldProblem[] = [];
  // Each node: its parent's index and its key (a number for an array item), to spell its field name when needed.
  const parents: number[] = [];
  const keys: (string | number)[] = [];
  const fieldOf = (node: number): string => {
    const path: (string | number)[] = [];
    for (let at = node; at > 0; at = parents[at] as number) path.push(keys[at] as string | number);
    return path.reverse().reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : joinField(name, key)), '');
  };
  const pending: { value: string | object; node: number; depth: number }[] = [];
  const visit = (child: unknown, parent: number, key: string | number, depth: number): void => {
    if (child === null || (typeof child !== 'object' && typeof child !== 'string')) return;
    parents.push(parent);
    keys.push(key);
    pending.push({ value: child, node: parents.length - 1, depth });
  };
  visit(value, -1, '', 1); // node 0, the value itself, whose field is ''
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: item, node, depth } = next;
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) unstorableText.push({ field: fieldOf(node), problem });
      continue;
    }
    if (depth > MAX_NESTING_DEPTH) return { tooDeep: topField(fieldOf(node)), unstorableText: [] };
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) visit(item[i], node, i, depth + 1);
      continue;
    }
    const names = Object.keys(item);
    for (let i = names.length - 1; i >= 0; i--) {
      const key = names[i] as string;
      const problem = keyProblem(key);
      if (problem) {
        // Named as it can be read: the answer must not carry the text it refuses.
        parents.push(node);
        keys.push(printableKey(key));
        unstorableText.push({ field: fieldOf(parents.length - 1), problem });
      } else {
        visit((item as Record<string, unknown>)[key], node, key, depth + 1);
      }
    }
  }
  return { unstorableText };
}

function topField(field: string): string {
  return /^[^.[]*/.exec(field)?.[0] ?? '';
}

/** The JSON Schema keywords the size check reads; everything else is left to the validator. */
interface SizedSchema {
  type?: string | string[];
  maxItems?: number;
  items?: SizedSchema;
  properties?: Record<string, SizedSchema>;
  additionalProperties?: unknown;
  anyOf?: SizedSchema[];
}

/**
 * Arrays longer than their schema allows and objects with too many unknown fields, each reported
 * once, and a copy of the value in which those arrays are empty and those fields gone (the value
 * itself when there are none), for the validator to look at. The walk follows the schema, so it goes
 * no deeper than the schema does.
 */
export function oversizedArrays(schema: SizedSchema, value: unknown): { problems: FieldProblem[]; bounded: unknown } {
  const problems: FieldProblem[] = [];
  const bounded = bound(schema, value, '', problems);
  return { problems, bounded };
}

function bound(schema: SizedSchema, value: unknown, field: string, problems: FieldProblem[]): unknown {
  if (Array.isArray(value)) {
    const arrays = branches(schema).filter((branch) => accepts(branch, 'array'));
    const limits = arrays.map((branch) => branch.maxItems);
    const limit = arrays.length > 0 && limits.every((n) => n !== undefined) ? Math.max(...(limits as number[])) : undefined;
    if (limit !== undefined && value.length > limit) {
      problems.push({
        field,
        problem: `lists ${value.length.toLocaleString('en-US')} items; at most ${limit.toLocaleString('en-US')} are accepted`,
      });
      return [];
    }
    const items = arrays.length === 1 ? arrays[0]?.items : undefined;
    if (!items) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const checked = bound(items, item, `${field}[${i}]`, problems);
      if (checked !== item) {
        copy ??= [...value];
        copy[i] = checked;
      }
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const objects = branches(schema).filter((branch) => branch.properties !== undefined);
    const closed = objects.length === 1 ? objects[0] : undefined;
    const properties = closed?.properties;
    if (!properties) return value;
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(properties, key));
    const dropUnknown = closed.additionalProperties === false && unknown.length > MAX_LISTED_PROBLEMS;
    if (dropUnknown) {
      const known = Object.keys(properties).join(', ');
      problems.push({
        field,
        problem: `${field ? '' : 'the input '}has ${unknown.length.toLocaleString('en-US')} fields that are not known, such as ${unknown.slice(0, 3).join(', ')} (known fields: ${known})`,
      });
    }
    let copy: Record<string, unknown> | undefined = dropUnknown ? {} : undefined;
    for (const key of Object.keys(properties)) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      const checked = bound(properties[key] as SizedSchema, item, joinField(field, key), problems);
      if (checked !== item || copy) {
        copy ??= { ...value };
        copy[key] = checked;
      }
    }
    return copy ?? value;
  }
  return value;
}

function branches(schema: SizedSchema): SizedSchema[] {
  return schema.anyOf ?? [schema];
}

function accepts(schema: SizedSchema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

function joinField(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}
