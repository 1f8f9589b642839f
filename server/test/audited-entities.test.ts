import ts from 'typescript';
import { expect, test } from 'vitest';
import { auditedEntities } from '../src/area.js';
import { AREAS } from '../src/areas.js';
import { serverSources } from './server-program.js';

/**
 * The entity types the server writes into the change history (`entityType: '…'` of a recordAudit,
 * `entityAudit('…', …)`), read from its source.
 */
function writtenEntityTypes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { file, relative } of serverSources().files) {
    const visit = (node: ts.Node) => {
      if (
        ts.isPropertyAssignment(node) &&
        ts.isIdentifier(node.name) &&
        node.name.text === 'entityType' &&
        ts.isStringLiteralLike(node.initializer)
      )
        found.set(node.initializer.text, relative);
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'entityAudit') {
        const [first] = node.arguments;
        if (first && ts.isStringLiteralLike(first)) found.set(first.text, relative);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

test('every entity type written into the change history is declared by an area, so GET v1/auditEvents reads it', () => {
  const written = writtenEntityTypes();
  // The walk finds the plain writes and the entity helpers alike.
  expect(written.get('tenant')).toBeDefined();
  expect(written.get('location')).toBeDefined();
  const declared = auditedEntities(AREAS);
  const undeclared = [...written].filter(([type]) => !(type in declared)).map(([type, file]) => `${type} (${file})`);
  expect(undeclared).toEqual([]);
});
