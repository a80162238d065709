/**
 * BCP 47 language tags ('en', 'en-US', 'pt-BR', 'zh-Hant-TW', 'es-419'), as the runtime's ICU data
 * knows them: well formed (Intl.getCanonicalLocales), naming a language ICU has a name for, and a
 * region it knows when there is one, so 'english', 'xx' or 'en-XX' is refused rather than stored.
 * Tags are stored in their canonical form: case fixed ('en-us' → 'en-US'), retired codes replaced
 * ('iw' → 'he').
 */

const MAX_LENGTH = 35; // RFC 5646 §4.4.1: 35 characters hold every tag worth supporting.
const TAG_CHARACTERS = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The tag in canonical form, or undefined when it is not a language tag the runtime knows. */
export function canonicalLanguageTag(tag: string): string | undefined {
  if (tag.length > MAX_LENGTH || !TAG_CHARACTERS.test(tag)) return undefined;
  let canonical: string;
  let locale: Intl.Locale;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] as string;
    locale = new Intl.Locale(canonical);
  } catch {
    return undefined;
  }
  // 'und' (undetermined) has no language: it says nothing a stemmer or a viewer could use.
  if (!locale.language || languageNames.of(locale.language) === undefined) return undefined;
  if (locale.region && regionNames.of(locale.region) === undefined) return undefined;
  return canonical;
}

/** The `language-tag` format of input schemas (schemas.ts LanguageTag). */
export function isLanguageTag(tag: string): boolean {
  return canonicalLanguageTag(tag) !== undefined;
}

/**
 * The language's name in that language, capitalised as a menu item ('English', 'Português (Brasil)',
 * 'Français'): a caption track's label in a player. The tag itself when ICU has no name for it.
 */
export function languageLabel(tag: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }).of(tag);
  } catch {
    name = undefined;
  }
  if (!name) return tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}
