import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const portalUrl = (): string => inject('portalUrl');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Debian's Chromium, driven by playwright-core (no downloaded browser). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export async function newContext(browser: Browser, options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL: portalUrl(), viewport: { width: options.width ?? 1400, height: options.height ?? 900 }, colorScheme: options.colorScheme ?? 'light' });
}

/** Signs in through the portal's login page and the embedded provider's sign-in form. */
export async function signIn(page: Page, userName: string, startPath = '/'): Promise<void> {
  await page.goto(startPath);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password').fill(userName);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/oidc') && !url.pathname.startsWith('/user/'));
}

/** Saves a screenshot under .tmp/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.resolve(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** A bearer token for API calls from a test, read from the signed-in page's stored sign-in. */
export async function storedAccessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith('cfs-portal.user:')) return (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
    }
    return undefined;
  });
  if (!token) throw new Error('No stored sign-in');
  return token;
}

/** A call to the portal's API with the page's stored bearer token: a test's own check of what the server says. */
export async function serverCall<T>(page: Page, path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<T> {
  const token = await storedAccessToken(page);
  const response = await fetch(`${portalUrl()}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/** The open side drawer (the one with a Close button). */
export function drawer(page: Page): Locator {
  return page.locator('.MuiDrawer-paper').filter({ has: page.getByRole('button', { name: 'Close', exact: true }) });
}

/** A grid row by a text it shows. */
export function gridRow(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

/** Chooses an option of an MUI select by its label. */
export async function choose(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}
