import path from 'node:path';

/**
 * ESLint rule: an area does not import another area, and shared code never imports an area
 * (STYLE: layout shows the architecture). Our own rule because the import plugins resolve with a
 * native package whose builds for other platforms the registry does not serve, which breaks
 * `npm ci`; resolving relative specifiers is all this needs.
 */
const AREA_ROOTS = ['server/src/areas', 'web/src/features'];
/** The composition roots: they may import the areas, and the areas may not import them. */
const ROOTS = ['web/src/app', 'server/src/app.ts', 'server/src/main.ts', 'server/src/areas.ts'];
const SHARED = [
  'server/src/auth',
  'server/src/db',
  'server/src/http',
  'server/src/odata',
  'server/src/audit',
  'server/src/engines',
  'server/src/crypto',
  'web/src/components',
  'web/src/lib',
  'web/src/auth',
];

function locate(file, root) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  for (const base of AREA_ROOTS) {
    if (relative.startsWith(`${base}/`))
      return { kind: 'area', base, area: relative.slice(base.length + 1).split('/')[0] };
  }
  if (SHARED.some((dir) => relative.startsWith(`${dir}/`))) return { kind: 'shared' };
  if (ROOTS.some((root) => relative === root || relative.startsWith(`${root}/`))) return { kind: 'root' };
  return { kind: 'other' };
}

export const areaBoundaries = {
  meta: {
    type: 'problem',
    messages: {
      crossArea:
        "An area does not import another area ('{{from}}' imports '{{to}}'); move the shared piece to shared code or contracts.",
      sharedImportsArea: "Shared code never imports an area ('{{to}}').",
      areaImportsRoot: "An area does not import the composition root ('{{to}}'); move what it needs to shared code.",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const here = locate(file, root);
    if (here.kind === 'other' || here.kind === 'root') return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const resolved = path.resolve(path.dirname(file), specifier);
      const target = locate(resolved, root);
      if (here.kind === 'area' && target.kind === 'root') {
        context.report({ node, messageId: 'areaImportsRoot', data: { to: path.relative(root, resolved) } });
        return;
      }
      if (target.kind !== 'area') return;
      if (here.kind === 'shared')
        context.report({ node, messageId: 'sharedImportsArea', data: { to: `${target.base}/${target.area}` } });
      else if (here.base === target.base && here.area !== target.area)
        context.report({ node, messageId: 'crossArea', data: { from: here.area, to: target.area } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
