import fs from 'node:fs';

/**
 * Prints a suite's figures as one line a person can compare between versions, e.g.
 * `authorization matrix: unexpected allows 0 · cross-tenant 2xx 0 · 5xx 0`. `npm test` and
 * `npm run test:hard` collect the lines (CFS_FIGURES_FILE) and print them before their last line.
 */
export function reportFigures(suite: string, figures: Record<string, number | string>): string {
  const line = `${suite}: ${Object.entries(figures)
    .map(([name, value]) => `${name} ${value}`)
    .join(' · ')}`;
  console.log(line);
  const file = process.env.CFS_FIGURES_FILE;
  if (file) fs.appendFileSync(file, `${line}\n`);
  return line;
}
