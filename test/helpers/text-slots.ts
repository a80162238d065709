/**
 * Every place an input can carry text, found from its schema and a sample of it: each field (whatever
 * its type: a string where a number belongs is still text), each nested field and array item the
 * sample holds, and each key of an open object (`custom_fields`). For each place, the sample with that
 * place holding `text` (or, for a key, a key of `text`), and the field name an answer gives it.
 * Catalog-wide suites use it to send one value everywhere without knowing any operation.
 */

interface SlotSchema {
  properties?: Record<string, SlotSchema>;
  patternProperties?: Record<string, SlotSchema>;
  additionalProperties?: unknown;
  items?: SlotSchema;
  anyOf?: SlotSchema[];
}

export interface TextSlot {
  /** The field as an answer names it: `cues[0].text`, `custom_fields.k\uD800` (a key written with its escapes). */
  field: string;
  input: Record<string, unknown>;
}

/** Each place of `sample` (an object of `schema`) where text can go, holding `text`; `keyName` is how a key of `text` is named. */
export function textSlots(schema: SlotSchema, sample: Record<string, unknown>, text: string, keyName: string): TextSlot[] {
  const slots: TextSlot[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const places = Object.hasOwn(sample, name)
      ? placesIn(property, sample[name], name, text, keyName)
      : [[name, text] as const, ...(isOpenObject(property) ? [[`${name}.${keyName}`, { [text]: 'value' }] as const] : [])];
    for (const [field, value] of places) slots.push({ field, input: { ...sample, [name]: value } });
  }
  return slots;
}

/** The places inside one value: the value itself, then what it holds, each as [field, the value changed there]. */
function placesIn(schema: SlotSchema, value: unknown, field: string, text: string, keyName: string): (readonly [string, unknown])[] {
  const places: (readonly [string, unknown])[] = [[field, text]];
  if (Array.isArray(value) && value.length > 0) {
    const items = branches(schema).find((branch) => branch.items)?.items;
    if (items) {
      for (const [inner, item] of placesIn(items, value[0], `${field}[0]`, text, keyName)) places.push([inner, [item, ...value.slice(1)]]);
    }
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const shape = branches(schema).find((branch) => branch.properties || isOpenObject(branch));
    for (const [name, inner] of Object.entries(object)) {
      const property = shape?.properties?.[name] ?? Object.values(shape?.patternProperties ?? {})[0];
      if (!property) continue;
      for (const [at, changed] of placesIn(property, inner, `${field}.${name}`, text, keyName))
        places.push([at, { ...object, [name]: changed }]);
    }
    if (shape && isOpenObject(shape)) places.push([`${field}.${keyName}`, { ...object, [text]: 'value' }]);
  }
  return places;
}

function branches(schema: SlotSchema): SlotSchema[] {
  return schema.anyOf ?? [schema];
}

function isOpenObject(schema: SlotSchema): boolean {
  return branches(schema).some(
    (branch) =>
      branch.patternProperties !== undefined || (typeof branch.additionalProperties === 'object' && branch.additionalProperties !== null),
  );
}
