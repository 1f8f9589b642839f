import { RE2 } from 're2-wasm';

/**
 * A user's regular expression, run by RE2 (linear time: no pattern can make it backtrack forever,
 * DESIGN "regular expressions in rules"). Returns undefined when RE2 cannot compile the pattern
 * (it refuses back-references and look-around, which it cannot run in linear time).
 */
export function compilePattern(pattern: string): ((text: string) => boolean) | undefined {
  try {
    const expression = new RE2(pattern, 'u');
    return (text) => expression.test(text);
  } catch {
    return undefined;
  }
}
