/**
 * The value at a JSON path in a parsed document, for the ApiRead operation: `$.items[0].price`,
 * `items[0].price`, `$['odd key'].value` or `$.list[-1]` (the last item).
 *
 * Our own, on purpose: ApiRead needs member and index steps only, and the JSONPath libraries
 * evaluate filter and script expressions, which we do not want to run on text that comes from a
 * portal user's parameters.
 */
export type JsonPathResult = { found: true; value: unknown } | { found: false };

type Step = string | number;

export function parseJsonPath(path: string): Step[] {
  const text = path.trim();
  let index = text.startsWith('$') ? 1 : 0;
  const steps: Step[] = [];
  const fail = (): never => {
    throw new Error(`The JSON path "${path}" is not valid`);
  };
  while (index < text.length) {
    const char = text[index];
    if (char === '.') {
      index += 1;
      const match = /^[^.[\]]+/.exec(text.slice(index));
      if (!match) fail();
      steps.push(match![0]);
      index += match![0].length;
    } else if (char === '[') {
      const rest = text.slice(index);
      const quoted = /^\[\s*(['"])((?:\\.|(?!\1).)*)\1\s*\]/.exec(rest);
      const numeric = /^\[\s*(-?\d+)\s*\]/.exec(rest);
      if (quoted) {
        steps.push(quoted[2]!.replace(/\\(.)/g, '$1'));
        index += quoted[0].length;
      } else if (numeric) {
        steps.push(Number(numeric[1]));
        index += numeric[0].length;
      } else fail();
    } else if (steps.length === 0 && index === 0) {
      // A path without the leading `$.`: its first member.
      const match = /^[^.[\]]+/.exec(text);
      if (!match) fail();
      steps.push(match![0]);
      index += match![0].length;
    } else fail();
  }
  return steps;
}

export function readJsonPath(document: unknown, path: string): JsonPathResult {
  let current: unknown = document;
  for (const step of parseJsonPath(path)) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return { found: false };
      const at = step < 0 ? current.length + step : step;
      if (at < 0 || at >= current.length) return { found: false };
      current = current[at];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, step))
        return { found: false };
      current = (current as Record<string, unknown>)[step];
    }
  }
  return { found: true, value: current };
}
