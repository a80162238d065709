/**
 * Answers kept by key, for work that is dear to redo and asked again and again with few distinct keys
 * (a time zone's canonical name, an Intl formatter). Bounded: past `max` keys it starts over, so no
 * caller can make it grow without end. An answer may be undefined and is kept too; a `make` that
 * throws keeps nothing, so it throws again the next time.
 */
export function keptAnswers<V>(max: number): (key: string, make: () => V) => V {
  const kept = new Map<string, V>();
  return (key, make) => {
    if (kept.has(key)) return kept.get(key) as V;
    const made = make();
    if (kept.size >= max) kept.clear();
    kept.set(key, made);
    return made;
  };
}
