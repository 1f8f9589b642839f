/**
 * Keeps `value` under `key` in `map` and forgets the oldest entries beyond `max` (a Map keeps
 * insertion order): the one bound of the instance's in-memory caches, so that none grows without
 * end whatever its callers send. Returns `value`.
 *
 * @example
 *   const validate = compiled.get(text) ?? keepBounded(compiled, text, ajv.compile(schema), COMPILED_MAX);
 */
export function keepBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as K);
  return value;
}
