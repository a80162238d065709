/**
 * Shared schema pieces, so every operation describes ids, timestamps and enums the same way in
 * validation, OpenAPI and MCP.
 */
import { type TNull, type TSchema, type TSchemaOptions, type TUnion, type TUnsafe, Type } from 'typebox';
import { TRIMMED } from './pipeline/trimmed-strings.ts';
import { describedPattern } from './pipeline/validation-messages.ts';

export { describedPattern };

/**
 * A string the service stores trimmed, and therefore trims before validating (trimmed-strings.ts):
 * spaces and line breaks around it are dropped first, then its rules judge what is kept, so
 * `"\n  Spaced dek  "` is accepted as `Spaced dek` rather than refused for its line break. Published
 * as `x-trimmed: true` in the OpenAPI document and the MCP tools. Wrap it before `Nullable`.
 */
export function Trimmed<T extends TSchema>(schema: T): T {
  return { ...schema, [TRIMMED]: true };
}

/** A name or title: at least one character other than a space. */
export const NOT_BLANK = describedPattern('\\S', 'must not be blank (spaces only)');

export function StringEnum<const Values extends readonly string[]>(values: Values, options: TSchemaOptions = {}): TUnsafe<Values[number]> {
  return Type.Unsafe<Values[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * One of `values`, or null, as one schema (`type: ['string', 'null']`) rather than Nullable's anyOf:
 * the response serializer (fast-json-stringify 6) refuses a null in an anyOf-wrapped enum once the
 * object holding it is itself Nullable, so use this for a nullable enum inside a nullable object.
 */
export function NullableStringEnum<const Values extends readonly string[]>(
  values: Values,
  options: TSchemaOptions = {},
): TUnsafe<Values[number] | null> {
  return Type.Unsafe<Values[number] | null>({ type: ['string', 'null'], enum: [...values, null], ...options });
}

export const Id = (description: string) => Type.String({ format: 'uuid', description });

/**
 * The kinds of thing an input id can refer to. Every id an operation takes is declared with
 * `ResourceId`, so tools find ids by what they refer to (the security suites fill in another
 * workspace's real ones); `checkCatalog` refuses an input `*_id` or `*_ids` field without it.
 */
export const RESOURCES = [
  'video',
  'folder',
  'api_key',
  'webhook_endpoint',
  'webhook_delivery',
  'lead',
  'outcome',
  'route',
  'route_step',
  'event_type',
  'booking',
  'calendar_feed',
  'member',
] as const;
export type Resource = (typeof RESOURCES)[number];

/** The schema keyword naming the resource: an `x-` extension, which OpenAPI allows in any schema. */
export const RESOURCE_KEYWORD = 'x-resource';

/** An id of a `resource`: `{type: 'string', format: 'uuid', 'x-resource': resource}`. */
export const ResourceId = (resource: Resource, description: string) =>
  Type.String({ format: 'uuid', [RESOURCE_KEYWORD]: resource, description });

/**
 * A field that names a `resource` by its id or by its name (a video's exact title): annotated like an
 * id, since an id it takes follows the same rule (not_found when it is not the workspace's), and the
 * security suites put other workspaces' ids there too. `options` are the string's own rules.
 */
export const ResourceReference = (resource: Resource, options: Parameters<typeof Type.String>[0]) =>
  Type.String({ ...options, [RESOURCE_KEYWORD]: resource });

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/**
 * `T | null`. For a plain string, number, integer or boolean it is written `type: [T, 'null']` rather
 * than `anyOf`: the same meaning, and the response serializer then needs no schema check per field.
 */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && ['string', 'number', 'integer', 'boolean'].includes(type)) {
    return { ...schema, type: [type, 'null'] } as unknown as TUnion<[T, TNull]>;
  }
  return Type.Union([schema, Type.Null()]);
}

/** A tag as stored: trimmed, 1–64 characters, no commas (commas separate tags in query strings). */
export const Tag = Trimmed(
  Type.String({
    minLength: 1,
    maxLength: 64,
    ...describedPattern('^[^,]*[^,\\s][^,]*$', 'must not be blank or contain a comma (commas separate tags)'),
    description: 'A tag.',
  }),
);

export const Tags = (description: string) => Type.Array(Tag, { maxItems: 50, description: `${description} Duplicates are dropped.` });

/**
 * A video named inside another answer (a lead's last video, a booking's source, an outcome's
 * attribution): its id and its title, the same two fields everywhere. Spread `VideoRefProperties`
 * where the answer is about one video itself and the fields sit at its top level.
 */
export const VideoRefProperties = {
  video_id: Id('The video.'),
  title: Type.String({ description: 'The video’s title.' }),
};
export const VideoRef = Type.Object(VideoRefProperties, { additionalProperties: false });

/**
 * An email address a caller sends (a lead, an invitee). Outputs declare theirs with
 * `PersonalString('email')` (core/pii.ts) instead: a masked address (`j***@e***.com`) is no longer a
 * valid email, and outputs are checked against their schema.
 */
export const Email = (description: string) => Trimmed(Type.String({ format: 'email', maxLength: 254, description }));

/**
 * A person's name as a caller (or a public form) sends it: 1–100 characters (a full name: 200) with one
 * that shows, and none of the characters that make a name lie about itself where it is shown later:
 * control characters (line breaks, escapes that recolour a terminal, which CRM exports and mail
 * headers also trip on), bidirectional overrides and isolates (which reverse how the text reads),
 * unpaired surrogates and non-characters. Letters of every script, accents and emoji are names.
 */
export const PersonName = (description: string, maxLength = 100) => ShownText(description, maxLength);

/**
 * Text shown to people as one line (a name, a button's label, a question): at least one visible
 * character (not a filler that draws nothing, such as U+3164 or the blank braille cell, and not a
 * combining mark alone), and no control characters, line breaks, direction overrides or lone surrogates, which
 * would make it invisible, reversed or garbled where it is shown.
 */
export const ShownText = (description: string, maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    ...describedPattern(
      '^(?=[\\s\\S]*[^\\s\\u00AD\\u034F\\u0300-\\u036F\\u115F\\u1160\\u180E\\u200B-\\u200F\\u2060-\\u2064\\u2800\\u3164\\uFEFF\\uFFA0])[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF\\uFFFE\\uFFFF]+$',
      'must show at least one character and hold no control characters (such as line breaks), direction overrides or invalid characters',
    ),
    description,
  });

/**
 * A phone number a caller sends: digits, spaces and the usual `+ ( ) - .` separators, 6 to 20
 * digits. Outputs declare theirs with `PersonalString('phone')`, as for `Email`.
 */
export const Phone = (description: string) =>
  Type.String({
    // No minLength: the pattern's sentence says what a short number lacks (digits, not characters).
    maxLength: 32,
    ...describedPattern(
      '^\\+?(?:[ ().-]*[0-9]){6,20}[ ().-]*$',
      'must be a phone number: 6 to 20 digits, with an optional leading + and spaces, dots, dashes or parentheses between them',
    ),
    description,
  });

/**
 * An IANA time zone name a caller sends ('Europe/Paris', 'UTC'; any case, aliases accepted),
 * checked by the `time-zone` format (registered in validation.ts) so an unknown zone is reported with every other problem of the
 * request. Store `canonicalTimeZone(name)` (core/calendar/time-zone.ts). Outputs use a plain string.
 */
export const TimeZone = (description: string) => Type.String({ format: 'time-zone', minLength: 1, maxLength: 64, description });

/**
 * An ISO 4217 currency code a caller sends ('USD', 'eur'), checked by the `currency` format
 * (core/values/currency.ts) against the codes the runtime knows; store it upper case.
 */
export const Currency = (description: string) => Type.String({ format: 'currency', minLength: 3, maxLength: 3, description });

/**
 * A BCP 47 language tag a caller sends ('en', 'en-US', 'pt-BR'; any case), checked by the
 * `language-tag` format (core/values/language-tag.ts) against the languages and regions the runtime knows;
 * store `canonicalLanguageTag(tag)`.
 */
export const LanguageTag = (description: string) => Type.String({ format: 'language-tag', minLength: 2, maxLength: 35, description });

/**
 * An id the caller brings from its own system (an order number, a Stripe object id): named like an
 * id but referring to none of our resources, so the id checks of checkCatalog leave it alone.
 */
export const ExternalId = (description: string) => Type.String({ minLength: 1, maxLength: 255, 'x-external-id': true, description });

/**
 * An id of any kind of object, in a filter that compares it and never looks it up (the audit log's
 * `object_id`: the log outlives what it names, so an id of a deleted video or an erased lead still
 * finds its events). Another workspace's id, like an unknown one, matches nothing: there is no row
 * to refuse it by. checkCatalog accepts it where it would ask for `ResourceId`.
 */
export const AnyObjectId = (description: string) => Type.String({ format: 'uuid', 'x-any-object': true, description });
