import { defineConfig, defaultClientConditions, defaultServerConditions } from 'vite';
import react from '@vitejs/plugin-react';
import { earlyStart } from './vite-early-start';
import { precompress } from './vite-precompress';

/**
 * Vendor chunks, cached across releases and shared by the lazy pages. A group also takes the
 * modules its own ones import, unless an earlier group holds them: dayjs (the grids' dates) and
 * zod (the list state in the address) have groups of their own, or the first grid page would
 * download the date pickers' and the form library's chunks with them. MUI's components are one
 * chunk: left to automatic splitting, the ones the shell shares with the grid landed in the grid's
 * chunk, and split by the pages that use them (`entriesAware`) the first grid page loaded twenty
 * pieces, more bytes than the one chunk (most of MUI is the data grid's own). The components only
 * panels and a few pages use (steppers, sliders, tables, cards, radios, toggle groups, collapses,
 * grids) are a chunk
 * of their own, `mui-material-panels`, listed by name in both groups: the first screen does without
 * them (web/e2e/first-screen.test.ts). The data grid, date pickers and form library load only with
 * the pages and panels that show them.
 */
const vendorChunks: { name: string; test: RegExp }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'oidc', test: /node_modules[\\/](oidc-client-ts|react-oidc-context|jwt-decode)[\\/]/ },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  {
    name: 'mui-core',
    test: /node_modules[\\/](@mui[\\/](system|utils|styled-engine|private-theming|types)|@emotion|stylis|react-is|@babel[\\/]runtime|clsx|prop-types)[\\/]/,
  },
  {
    name: 'mui-material',
    test: /node_modules[\\/]@mui[\\/]material[\\/](esm[\\/])?(?!(Slider|Stepper|Step|StepButton|StepConnector|StepIcon|StepLabel|ToggleButtonGroup|Radio|RadioGroup|Card|CardActionArea|CardActions|CardContent|AlertTitle|ButtonGroup|Table|TableBody|TableContainer|TableHead|TableRow|Collapse|FormGroup|Grid|NoSsr)[\\/]|(internal[\\/]svg-icons[\\/](RadioButtonChecked|RadioButtonUnchecked|CheckCircle|Warning)|utils[\\/]areArraysEqual)\.mjs$)/,
  },
  {
    name: 'mui-material-panels',
    test: /node_modules[\\/]@mui[\\/]material[\\/](esm[\\/])?((Slider|Stepper|Step|StepButton|StepConnector|StepIcon|StepLabel|ToggleButtonGroup|Radio|RadioGroup|Card|CardActionArea|CardActions|CardContent|AlertTitle|ButtonGroup|Table|TableBody|TableContainer|TableHead|TableRow|Collapse|FormGroup|Grid|NoSsr)[\\/]|(internal[\\/]svg-icons[\\/](RadioButtonChecked|RadioButtonUnchecked|CheckCircle|Warning)|utils[\\/]areArraysEqual)\.mjs$)/,
  },
  { name: 'dayjs', test: /node_modules[\\/]dayjs[\\/]/ },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
  { name: 'data-grid', test: /node_modules[\\/]@mui[\\/](x-data-grid|x-internals|x-virtualizer|x-license)[\\/]/ },
  { name: 'date-pickers', test: /node_modules[\\/]@mui[\\/]x-date-pickers[\\/]/ },
  { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
];

const apiTarget = process.env.CFS_API_URL ?? 'http://localhost:8080';
const proxied = ['/api', '/v1', '/oidc', '/openapi.json', '/docs', '/healthz'];

export default defineConfig({
  plugins: [react(), earlyStart(), precompress()],
  // `source` points @cfs/contracts at its TypeScript; the defaults stay so packages keep their browser builds.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorChunks.map((chunk) => ({ ...chunk, priority: 10 })) },
      },
    },
  },
});
