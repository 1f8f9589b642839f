import fs from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const folders = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : []);

/**
 * Areas do not import each other's internals, and shared code never imports an area
 * (STYLE: layout shows the architecture). The composition roots (server/src/app.ts,
 * web/src/app/) are the only places that know every area.
 */
const areaZones = (base, areas, shared) => [
  ...areas.map((area) => ({
    target: `${base}/${area}`,
    from: base,
    except: [`./${area}`],
    message: 'An area does not import another area; move the shared piece to shared code or contracts.',
  })),
  ...shared.map((dir) => ({ target: dir, from: base, message: 'Shared code never imports an area.' })),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.tmp/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...areaZones('./server/src/areas', folders('server/src/areas'), [
              './server/src/auth',
              './server/src/db',
              './server/src/http',
              './server/src/odata',
              './server/src/audit',
              './server/src/engines',
            ]),
            ...areaZones('./web/src/features', folders('web/src/features'), ['./web/src/components', './web/src/lib', './web/src/auth']),
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['scripts/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
