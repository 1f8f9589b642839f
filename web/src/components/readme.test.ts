import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The worked example of README.md stays true: each code block headed by a file's path is found in
 * that file, word for word (`// …` marks lines left out, the parts in order), and each step of the
 * area's table names files that exist and names found in them.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const readme = fs.readFileSync(path.join(import.meta.dirname, 'README.md'), 'utf8');
const example = readme.slice(readme.indexOf('## Worked example'), readme.indexOf('## Recipes'));

const exists = (relative: string) => fs.existsSync(path.join(ROOT, relative));
const read = (relative: string) => fs.readFileSync(path.join(ROOT, relative), 'utf8');
/** A file's text, or the text of every file in a folder. */
const textOf = (relative: string): string =>
  fs.statSync(path.join(ROOT, relative)).isDirectory()
    ? fs
        .readdirSync(path.join(ROOT, relative), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
        .join('\n')
    : read(relative);
const spans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
const isPath = (span: string) => /^(web|server|contracts|client)\/\S+$/.test(span);

const quotes = [...example.matchAll(/^### `([^`]+)`[^\n]*\n+```tsx?\n([\s\S]*?)\n```/gm)].map((match) => ({
  file: match[1]!,
  parts: match[2]!.split(/^\/\/ …$\n?/m).map((part) => part.replace(/^\n+|\n+$/g, '')),
}));
const steps = example
  .split('\n')
  .filter((line) => /^\| \d+ \|/.test(line))
  .map((line) => {
    const [, step, where, what] = line.split('|').map((cell) => cell.trim());
    return { step: step!, where: spans(where!)[0]!, names: spans(what!) };
  });

describe('the worked example of components/README.md', () => {
  it('quotes files that exist, word for word', () => {
    expect(quotes.length).toBeGreaterThan(5);
    for (const { file, parts } of quotes) {
      expect(exists(file), file).toBe(true);
      const text = read(file);
      let from = 0;
      for (const part of parts) {
        const at = text.indexOf(part, from);
        expect(at, `${file} no longer holds:\n${part}`).toBeGreaterThanOrEqual(0);
        from = at + part.length;
      }
    }
  });

  it('names in each step files that exist, and names that are in them', () => {
    expect(steps.map((step) => step.step)).toEqual(steps.map((_, index) => String(index + 1)));
    expect(steps.length).toBeGreaterThan(5);
    for (const { step, where, names } of steps) {
      expect(exists(where), `step ${step}: ${where}`).toBe(true);
      const text = textOf(where);
      for (const name of names) {
        if (isPath(name)) expect(exists(name), `step ${step}: ${name}`).toBe(true);
        else if (/^[\w-]+\.tsx?$/.test(name))
          expect(exists(path.join(where, name)), `step ${step}: ${name}`).toBe(true);
        else expect(text.includes(name), `step ${step}: ${name} is not in ${where}`).toBe(true);
      }
    }
  });

  it('names only paths that exist', () => {
    expect(spans(example).filter((span) => isPath(span) && !exists(span.replace(/\/$/, '')))).toEqual([]);
  });
});
