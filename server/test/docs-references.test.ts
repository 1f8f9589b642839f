import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/*
 * The docs name files and functions so that a reader can find them: every such name must exist.
 * This reads the README, docs/, bench/README.md and web/src/components/README.md, takes the inline
 * code spans (`…`) outside code blocks, and checks
 * - repository paths (`server/src/db/scoped.ts`, `web/e2e/`, `lib/list-query.ts`, `email.test.ts`):
 *   the file or folder exists (`<area>`, `{id}` and `*` stand for any one name);
 * - code names (`registerListRoutes`, `scoped(db, scope)`, `ResourceGrid`): declared somewhere in
 *   the repository's sources (a function, constant, type, class, property, parameter, method or
 *   import);
 * - constants and environment variables (`RULE_TYPES`, `DATABASE_URL`): written somewhere in the
 *   sources or the deployment files.
 * Prose words in code spans (`admin`, `folder`, `Sev3`) are none of these and are not checked.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const SELF = 'server/test/docs-references.test.ts';

/** The repository's own folders: a path starting with one of them is read from the root. */
const TOP_FOLDERS = new Set(['agent', 'bench', 'client', 'contracts', 'deploy', 'docs', 'scripts', 'server', 'web']);
/** Folders that hold no source: dependencies, build output, the portal's data, test leftovers. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'data', '.git', '.tmp', 'test-results']);
/** Made by `npm run build`, so absent from a clean clone. */
const BUILD_OUTPUT = /^(agent|client|contracts|server|web)\/dist(\/|$)/;
const SOURCE_FILE = /\.(ts|tsx|mjs|cjs|js)$/;
/** A bare file name or a relative path the docs give for a source file or a page. */
const FILE_NAME = /\.(ts|tsx|mjs|cjs|js|md)$/;
/** The files whose words count for constants and environment variables. */
const WORD_FILES = /(\.(ts|tsx|mjs|cjs|js|json|yaml|yml)|Dockerfile|Caddyfile|\.env\.example)$/;

/** Code names the docs may use that no source declares, each with the reason. */
const NOT_DECLARED: ReadonlyMap<string, string> = new Map([
  ['floor', 'arithmetic, not code: the protocol timer period is floor(now / interval)'],
  ['writeBuffer', "the pg driver's own function, named in the benchmark's CPU profile"],
  ['evaluateAll', "Playwright's locator method, named in the test suite's notes"],
  ['groupby', "OData's $apply syntax, which the version report's summary strip sends"],
  ['I3ERequestForm', 'the name of a feature flag in the FEATURES setting, compared lower-cased'],
  ['zodResolver', "react-hook-form's resolver, which the components README advises against"],
]);

/**
 * References known to be wrong in a document another change rewrites, by document and span, each
 * with the reason; take an entry out when that document is fixed.
 */
const KNOWN_BROKEN: ReadonlyMap<string, string> = new Map([
  [
    'web/src/components/README.md: `server/src/db/migrations/0008-locations.ts`',
    "the worked example is being rewritten; the locations table's migration is 0012-locations.ts",
  ],
]);

interface RepositoryIndex {
  /** Every file and folder, relative to the root, with `/` between names. */
  readonly paths: ReadonlySet<string>;
  readonly declared: ReadonlySet<string>;
  /** Names the sources write as quoted text: flags, column types, operators. */
  readonly literals: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
}

function walk(dir: string, into: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    into.push(entry.isDirectory() ? `${relative}/` : relative);
    if (entry.isDirectory()) walk(relative, into);
  }
}

const IDENTIFIER = String.raw`[A-Za-z_$][\w$]*`;
const MODIFIERS = 'public|private|protected|static|async|readonly|get|set|override|export|default';
/** Where a source declares a name; the first group is the name, or a list of names for imports. */
const DECLARATIONS: readonly RegExp[] = [
  new RegExp(String.raw`\b(?:function\*?|const|let|var|class|interface|type|enum|namespace)\s+(${IDENTIFIER})`, 'g'),
  // Properties of objects and types, typed parameters.
  new RegExp(String.raw`(${IDENTIFIER})\s*\??\s*:(?!:)`, 'g'),
  // Shorthand properties and destructured names.
  new RegExp(String.raw`[{,]\s*(?:\.\.\.)?(${IDENTIFIER})\s*(?=[,}=])`, 'g'),
  // Methods, and functions declared by assignment.
  new RegExp(String.raw`^\s*(?:(?:${MODIFIERS})\s+)*(${IDENTIFIER})\s*(?:<[^>\n]*>)?\(`, 'gm'),
  new RegExp(String.raw`(${IDENTIFIER})\s*=\s*(?:async\s*)?(?:function\b|\()`, 'g'),
  // Imports of the sources' own and their packages' names.
  /import\s+(?:type\s+)?([^'";]*?)\s+from\s/g,
  // SQL functions made by migrations.
  /create\s+(?:or\s+replace\s+)?function\s+(\w+)/gi,
];

function indexRepository(): RepositoryIndex {
  const entries: string[] = [];
  walk('', entries);
  const paths = new Set(entries.map((entry) => entry.replace(/\/$/, '')));
  const declared = new Set<string>();
  const literals = new Set<string>();
  const words = new Set<string>();
  for (const file of entries) {
    // This file writes made-up names on purpose.
    if (file.endsWith('/') || !WORD_FILES.test(file) || file === SELF) continue;
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const word of text.match(/[A-Za-z_][\w]*/g) ?? []) words.add(word);
    if (!SOURCE_FILE.test(file)) continue;
    for (const match of text.matchAll(/['"`]([A-Za-z_$][\w$]*)['"`]/g)) literals.add(match[1]!);
    for (const pattern of DECLARATIONS)
      for (const match of text.matchAll(pattern))
        for (const name of (match[1] ?? '').match(new RegExp(IDENTIFIER, 'g')) ?? []) declared.add(name);
  }
  return { paths, declared, literals, words };
}

/** The inline code spans of a Markdown text, outside fenced code blocks. */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(FENCE, '');
  return [...prose.matchAll(/(?<!`)(`+)(?!`)([\s\S]+?)(?<!`)\1(?!`)/g)].map((match) => match[2]!.trim());
}

const FENCE = /^(```|~~~)([^\n]*)\n([\s\S]*?)^\1[^\n]*$/gm;

/**
 * What the diagrams and folder trees (code blocks without a language) name: source files, calls
 * (`claimJobs()`) and camelCase names, as spans. Code blocks with a language are examples and commands.
 */
function diagramNames(markdown: string): string[] {
  const names: string[] = [];
  for (const [, , language, body] of markdown.matchAll(FENCE)) {
    if (language!.trim() !== '') continue;
    for (const [file] of body!.matchAll(/[\w.<>/-]+\.(?:ts|tsx|mjs)(?![\w])/g)) names.push(file.replace(/^\/+/, ''));
    for (const [, call] of body!.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\(/g)) names.push(`${call!}()`);
    for (const [name] of body!.matchAll(/(?<![\w$./-])[a-z][a-z0-9]*[A-Z][\w$]*(?![\w$(])/g)) names.push(name);
  }
  return names;
}

/** A path with `<area>`, `{id}`, `*` or `**` in it, as a pattern over the repository's paths. */
function pathPattern(text: string): RegExp {
  const parts = text.split(/(\*\*\/|<[^>/]+>|\{[^}/]+\}|\*)/);
  const source = parts
    .map((part, index) =>
      index % 2 === 0 ? part.replace(/[.+?^$()|[\]\\]/g, '\\$&') : part === '**/' ? '(?:[^/]+/)*' : '[^/]+',
    )
    .join('');
  return new RegExp(`^${source}$`);
}

function pathExists(candidate: string, index: RepositoryIndex): boolean {
  if (index.paths.has(candidate)) return true;
  if (!/[<{*]/.test(candidate)) return false;
  const pattern = pathPattern(candidate);
  for (const known of index.paths) if (pattern.test(known)) return true;
  return false;
}

/** A relative path or a bare file name: found under the document's folder, else anywhere below the root. */
function fileFound(reference: string, docFolder: string, index: RepositoryIndex): boolean {
  if (pathExists(docFolder ? `${docFolder}/${reference}` : reference, index)) return true;
  const pattern = pathPattern(`**/${reference}`);
  const suffix = `/${reference}`;
  for (const known of index.paths) {
    if (known === reference || known.endsWith(suffix)) return true;
    if (/[<{*]/.test(reference) && pattern.test(known)) return true;
  }
  return false;
}

function brokenPath(span: string, docFolder: string, index: RepositoryIndex): string | undefined {
  if (!/^[\w.@<>{}*/-]+$/.test(span) || BUILD_OUTPUT.test(span)) return undefined;
  const candidate = span.replace(/\/$/, '');
  const first = candidate.split('/')[0]!;
  if (candidate.includes('/') && TOP_FOLDERS.has(first))
    return pathExists(candidate, index) ? undefined : `no file or folder ${span}`;
  if (FILE_NAME.test(candidate) && !candidate.startsWith('/'))
    return fileFound(candidate, docFolder, index) ? undefined : `no file ${span}`;
  return undefined;
}

function brokenName(span: string, index: RepositoryIndex): string | undefined {
  // A call (`scoped(db, scope)`, `defineTask({ … })`) or a code name alone; a member of another
  // object (`page.clock.runFor`) is that object's.
  const call = new RegExp(String.raw`^(${IDENTIFIER})(?:<[^>]*>)?\(`).exec(span);
  const name = call?.[1] ?? (new RegExp(`^${IDENTIFIER}$`).test(span) ? span : undefined);
  if (!name || NOT_DECLARED.has(name)) return undefined;
  const codeLike =
    call !== null ||
    /^[a-z][a-z0-9]*[A-Z]/.test(name) || // camelCase
    /^[A-Z][a-z0-9]+[A-Z]/.test(name); // PascalCase of two words or more
  if (codeLike) return index.declared.has(name) || index.literals.has(name) ? undefined : `${name} is declared nowhere`;
  // Constants and environment variables.
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(name) && !index.words.has(name)) return `${name} is written nowhere`;
  return undefined;
}

/** What a document names that does not exist, one line each. */
function brokenReferences(markdown: string, docPath: string, index: RepositoryIndex): string[] {
  const docFolder = path.posix.dirname(docPath) === '.' ? '' : path.posix.dirname(docPath);
  const broken = new Set<string>();
  for (const span of [...codeSpans(markdown), ...diagramNames(markdown)]) {
    const problem = brokenPath(span, docFolder, index) ?? brokenName(span, index);
    const where = `${docPath}: \`${span}\``;
    if (problem && !KNOWN_BROKEN.has(where)) broken.add(`${where}: ${problem}`);
  }
  return [...broken];
}

function documents(index: RepositoryIndex): string[] {
  const docs = [...index.paths].filter((file) => file.startsWith('docs/') && file.endsWith('.md'));
  return ['README.md', ...docs.sort(), 'bench/README.md', 'web/src/components/README.md'];
}

describe('the documentation', () => {
  const index = indexRepository();

  test('names only files, folders, functions and constants that exist', () => {
    const broken = documents(index).flatMap((doc) =>
      brokenReferences(fs.readFileSync(path.join(root, doc), 'utf8'), doc, index),
    );
    expect(broken).toEqual([]);
  });

  test('keeps the README a front door of at most 200 lines', () => {
    const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(200);
  });

  test('reports a made-up function, file and constant, and leaves prose and settings alone', () => {
    const page = [
      'The rules run in `evaluateStoredBatch` (`server/src/engines/rules/evaluate-stored.ts`),',
      'see `MAX_RULES_PER_TENANT`.',
      'Packets show in `PacketViewer` (`packet-viewer.tsx`), beside `PacketView` (`components/packet-view.tsx`).',
      'Queries go through `scoped(db, scope)` in `server/src/db/scoped.ts`; lists through `registerListRoutes`.',
      'Sign in as `admin` with `DATABASE_URL` unset; files land in `data/postgres`',
      'and `agent/dist/cfs-agent-win-x64.exe`.',
      '```ts',
      'notDeclaredInAnExample();',
      '```',
      '```',
      'packet → ingestPackets() → evaluateStoredBatch() → engines/rules/evaluate-stored.ts',
      '```',
    ].join('\n');
    expect(brokenReferences(page, 'docs/example.md', index)).toEqual([
      'docs/example.md: `evaluateStoredBatch`: evaluateStoredBatch is declared nowhere',
      'docs/example.md: `server/src/engines/rules/evaluate-stored.ts`: ' +
        'no file or folder server/src/engines/rules/evaluate-stored.ts',
      'docs/example.md: `MAX_RULES_PER_TENANT`: MAX_RULES_PER_TENANT is written nowhere',
      'docs/example.md: `PacketViewer`: PacketViewer is declared nowhere',
      'docs/example.md: `packet-viewer.tsx`: no file packet-viewer.tsx',
      'docs/example.md: `engines/rules/evaluate-stored.ts`: no file engines/rules/evaluate-stored.ts',
      'docs/example.md: `evaluateStoredBatch()`: evaluateStoredBatch is declared nowhere',
    ]);
  });
});
