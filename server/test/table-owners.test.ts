import { existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { TABLE_OWNERS } from '../src/db/table-owners.js';
import { serverSources, SOURCE_ROOT } from './server-program.js';

/*
 * Every table has one owning folder (db/table-owners.ts). This test reads the server's source
 * with the TypeScript type checker and fails on any write of a table from another folder: a
 * Kysely insertInto/updateTable/deleteFrom/mergeInto (on the root handle, a transaction or
 * `scoped()`), or raw SQL text (any tagged template, `sql.raw`, a pg client's `query`) that
 * inserts, updates, deletes or merges. Table names held in a
 * variable are read from its type; a write whose table cannot be known is a finding too.
 */
const WRITE_METHODS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto']);
const RAW_WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*|\$)"?/gi;
/** What follows UPDATE without naming a table: `DO UPDATE SET`, `FOR UPDATE [OF|SKIP|NOWAIT]`. */
const NOT_A_TABLE = new Set(['set', 'of', 'skip', 'nowait']);

type Owner = (typeof TABLE_OWNERS)[keyof typeof TABLE_OWNERS];

/** The folder a source file belongs to: `areas/<area>`, `engines/<engine>`, or the top-level folder. */
function folderOf(relative: string): string {
  const parts = relative.split('/');
  if ((parts[0] === 'areas' || parts[0] === 'engines') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts.length > 1 ? (parts[0] ?? relative) : relative;
}

/** The table names a write's first argument can hold: a literal, or the literal types of a variable. */
function tablesOf(checker: ts.TypeChecker, argument: ts.Expression): string[] | undefined {
  if (ts.isStringLiteralLike(argument)) return [argument.text];
  const type = checker.getTypeAtLocation(argument);
  const parts = type.isUnion() ? type.types : [type];
  const names = parts.map((part) => (part.isStringLiteral() ? part.value : undefined));
  return names.every((name) => name !== undefined) ? names : undefined;
}

function rawText(template: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  // A substitution stands as a placeholder, so `UPDATE ${x}` is not read as the table that follows it.
  return [template.head.text, ...template.templateSpans.map((span) => span.literal.text)].join(' $ ');
}

/** Whether a call hands its first argument to the database as SQL text: `sql.raw(…)`, or a driver's `client.query(…)`. */
function takesSqlText(call: ts.CallExpression, file: ts.SourceFile): boolean {
  if (call.expression.getText(file) === 'sql.raw') return true;
  return ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'query';
}

/** The text of raw SQL: a tagged template (`sql`…``), or the literal given to `sql.raw` or a driver's `query`. */
function sqlText(node: ts.Node, file: ts.SourceFile): string | undefined {
  if (ts.isTaggedTemplateExpression(node)) return rawText(node.template);
  if (!ts.isCallExpression(node) || !takesSqlText(node, file)) return undefined;
  const [text] = node.arguments;
  if (text && ts.isStringLiteralLike(text)) return text.text;
  return text && ts.isTemplateExpression(text) ? rawText(text) : undefined;
}

interface Write {
  where: string;
  folder: string;
  table: string;
}

function writes(): Write[] {
  const { checker, files } = serverSources();
  const found: Write[] = [];
  for (const { file, relative } of files) {
    const folder = folderOf(relative);
    const at = (node: ts.Node) => `${relative}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        WRITE_METHODS.has(node.expression.name.text)
      ) {
        const [first] = node.arguments;
        const tables = first ? tablesOf(checker, first) : undefined;
        for (const table of tables ?? ['(a table the checker cannot name)'])
          found.push({ where: at(node), folder, table: table.split(/\s+as\s+/i)[0] ?? table });
      }
      const text = sqlText(node, file);
      for (const match of text?.matchAll(RAW_WRITE) ?? []) {
        const table = match[1]?.toLowerCase();
        if (table === '$') found.push({ where: at(node), folder, table: '(a table the checker cannot name)' });
        else if (table && !NOT_A_TABLE.has(table)) found.push({ where: at(node), folder, table });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

function ownerOf(table: string): Owner | undefined {
  return Object.hasOwn(TABLE_OWNERS, table) ? TABLE_OWNERS[table as keyof typeof TABLE_OWNERS] : undefined;
}

describe('table owners', () => {
  test('are folders of the server', () => {
    const missing = [...new Set(Object.values(TABLE_OWNERS))].filter(
      (owner) => !existsSync(path.join(SOURCE_ROOT, owner)),
    );
    expect(missing).toEqual([]);
  });

  test('are the only folders that insert, update, delete or merge their tables, raw sql included', () => {
    const strays = writes().filter((write) => ownerOf(write.table) !== write.folder);
    expect(
      strays.map((write) => `${write.where} writes ${write.table} (owner: ${ownerOf(write.table) ?? 'none'})`),
    ).toEqual([]);
  }, 180_000);
});
