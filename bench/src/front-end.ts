import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { precompress } from '../../web/vite-precompress.js';

/**
 * The browser's first screen: the portal's work units page against a bare React + MUI + MUI X
 * Data Grid app (`bench/bare-app/`), both built here by the same vite from the same lockfile and
 * served precompressed, opened in Chromium with an empty cache in turns.
 *
 * - JS: the gzip bytes (at the build's level 9) of the scripts a page asked for before its first
 *   grid row appeared.
 * - Time: from the start of the navigation to the first grid row in the document (a mutation
 *   observer installed before the page's scripts), the median of the runs.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ROW_SELECTOR = '.MuiDataGrid-row';
/** Records when the first grid row enters the document, in the page's own clock (0 = navigation start). */
const FIRST_ROW_OBSERVER = `
  new MutationObserver((_, observer) => {
    if (!document.querySelector(${JSON.stringify(ROW_SELECTOR)})) return;
    window.__firstRowMs = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });`;

export interface FirstScreen {
  /** Navigation start to the first grid row, ms. */
  firstRowMs: number;
  /** The scripts asked for before it, by path. */
  scripts: string[];
  /** Their gzip bytes. */
  scriptGzipBytes: number;
  /** Each one's gzip bytes, by path. */
  scriptSizes: Record<string, number>;
  /** The API calls made before it, in the order they went out (method and path with query). */
  apiCalls: string[];
  /** Where the time went: each script and call before the first row, its start and end (ms from navigation start). */
  timeline: { name: string; start: number; end: number }[];
}

/** Builds the portal's web app into a folder of the benchmark's own (the same config as `npm run build`). */
export async function buildWebApp(outDir: string): Promise<void> {
  await build({ root: path.join(root, 'web'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
}

/** Builds the bare app, with the same precompression and JSX transform as the portal's, and its rows. */
export async function buildBareApp(outDir: string, rowCount = 10): Promise<void> {
  await build({
    root: path.join(root, 'bench', 'bare-app'),
    configFile: false,
    logLevel: 'error',
    oxc: { jsx: { runtime: 'automatic' } },
    plugins: [precompress()],
    build: { outDir, emptyOutDir: true },
  });
  const severities = ['Sev0', 'Sev1', 'Sev2', 'Sev3', 'Sev4'];
  const rows = Array.from({ length: rowCount }, (_, index) => ({
    id: index + 1,
    title: `Generated work unit ${index + 1}`,
    severity: severities[index % severities.length],
    state: 'New',
    created: new Date(Date.UTC(2026, 0, 1, index)).toISOString(),
  }));
  await fs.writeFile(path.join(outDir, 'rows.json'), JSON.stringify(rows));
}

/** Serves a built app as the portal serves its own: the precompressed copies, on a free port. */
export async function serveStatic(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify();
  await app.register(fastifyStatic, { root: dir, preCompressed: true });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Signs in through the portal's login page and the embedded provider's form; answers the stored sign-in and the user's home path. */
export async function signIn(
  browser: Browser,
  publicUrl: string,
  user: string,
): Promise<{ storageState: Awaited<ReturnType<BrowserContext['storageState']>>; home: string }> {
  const context = await browser.newContext({ baseURL: publicUrl });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('User name').fill(user);
    await page.getByLabel('Password').fill(user);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(
      (url) => !url.pathname.startsWith('/oidc') && !url.pathname.startsWith('/user/') && url.pathname !== '/',
    );
    return { storageState: await context.storageState(), home: new URL(page.url()).pathname };
  } finally {
    await context.close();
  }
}

/**
 * Opens `url` in a new context (an empty cache) and waits for the first grid row. `dist` is the
 * built app the server sends, where each script's gzip copy is weighed.
 */
export async function openFirstScreen(
  browser: Browser,
  url: string,
  dist: string,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<FirstScreen> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    ...(storageState ? { storageState } : {}),
  });
  try {
    await context.addInitScript(FIRST_ROW_OBSERVER);
    const page = await context.newPage();
    const origin = new URL(url).origin;
    const apiCalls: string[] = [];
    let painted = false;
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (!painted && request.url().startsWith(origin) && /^\/(api|v1)\//.test(pathname))
        apiCalls.push(`${request.method()} ${decodeURIComponent(pathname + search)}`);
    });
    await page.goto(url);
    await page.locator(ROW_SELECTOR).first().waitFor({ timeout: 60_000 });
    painted = true;
    const firstRowMs = Number(await page.evaluate('window.__firstRowMs'));
    const entries = (await page.evaluate(
      `performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime, entry.responseEnd])`,
    )) as [string, number, number][];
    const timeline = entries
      .filter(([name, start]) => start <= firstRowMs && name.startsWith(origin))
      .map(([name, start, end]) => ({ name: new URL(name).pathname, start, end }));
    const scripts = entries
      .filter(
        ([name, start]) => start <= firstRowMs && name.startsWith(origin) && new URL(name).pathname.endsWith('.js'),
      )
      .map(([name]) => new URL(name).pathname);
    const scriptSizes: Record<string, number> = {};
    for (const script of scripts) scriptSizes[script] = await gzipSize(path.join(dist, script));
    const scriptGzipBytes = Object.values(scriptSizes).reduce((sum, size) => sum + size, 0);
    return { firstRowMs, scripts, scriptGzipBytes, scriptSizes, apiCalls, timeline };
  } finally {
    await context.close();
  }
}

/** The build's gzip copy when it wrote one (files over 1 kB), else the file gzipped alike. */
async function gzipSize(file: string): Promise<number> {
  try {
    return (await fs.stat(`${file}.gz`)).size;
  } catch {
    return zlib.gzipSync(await fs.readFile(file), { level: zlib.constants.Z_BEST_COMPRESSION }).length;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const tempDir = (prefix: string) => fs.mkdtemp(path.join(os.tmpdir(), prefix));
