import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject, onTestFinished } from 'vitest';
import { createPortalClient, ok, type paths, type PortalClient, type RequestBody } from '@cfs/client';
import type { ManualAction } from '@cfs/contracts/automation';
import type { Protocol, ProtocolAction } from '@cfs/contracts/protocols';
import type { ActionDefinition } from '@cfs/contracts/action-definitions';
import { POST_ACTION_REFRESH_MS } from '@cfs/contracts/constants';
import type { CurrentUser, TenantLookup } from '@cfs/contracts/shell';
import type { Subscription, Tenant } from '@cfs/contracts/tenants';
import type { GeneratedToken } from '@cfs/contracts/tokens';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import type { JsonOf } from '../src/lib/json-types';

/**
 * What the browser tests share: the browser, signed-in pages, calls to the portal's API, small
 * factories that make a test's own data, and Playwright's clock.
 *
 * Every test makes what it needs through the API, under a name of its own (`uniqueName`), and
 * looks for that name on the screen, so tests pass alone and in any order. A sign-in costs
 * seconds, so each user signs in once and every test opens its pages from that stored sign-in
 * (`signedInPage`).
 */

export const portalUrl = (): string => inject('portalUrl');

/**
 * Headless Chromium as the tests need it. Chromium builds each new window's omnibox popup as a
 * WebUI page in a renderer process of its own, and keeps a spare renderer ready for the next
 * page: with a page per test, that was two more processes started per test, and a quarter of
 * the browser tests' time. No test has an omnibox, and its page's own renderer starts on demand.
 * `--process-per-site` gives the pages of one context one renderer (see `keepRenderer`).
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess',
  '--process-per-site',
];
const USER_STORE_PREFIX = 'cfs-portal.user:';

export type UserName = 'admin' | 'operator' | 'operator2' | 'enduser';

export interface ContextOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
  /**
   * The system's motion preference the page sees: `reduce` unless told, so that drawers, menus
   * and dialogs appear at once (the portal honours the preference) and a test neither waits on
   * nor renders their animations, which took half of the CPU of opening and closing a drawer.
   */
  reducedMotion?: 'reduce' | 'no-preference';
}

/**
 * The browser of the running test file: Debian's Chromium, driven by playwright-core (no
 * downloaded browser), launched before the file's first test and closed after its last by the
 * browser projects' setup file (`web/e2e/portal-ready.ts`).
 */
export let browser: Browser;

export async function launchFileBrowser(): Promise<void> {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

export async function closeFileBrowser(): Promise<void> {
  await browser?.close();
}

/**
 * How long a locator, a click or a navigation waits before it fails: Playwright's 30 s unless
 * told. Two browser files run beside the server suite on two cores, and one page of a full CI
 * run waited more than 30 s for its first heading; a test's own timeout (90 s) still bounds it.
 */
const WAIT_MS = 60_000;

/** A browser context with nobody signed in, or with a stored sign-in. */
export async function newContext(
  browser: Browser,
  options: ContextOptions = {},
  storageState?: StorageState,
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...contextOptions(options), storageState });
  context.setDefaultTimeout(WAIT_MS);
  return context;
}

function contextOptions(options: ContextOptions) {
  return {
    baseURL: portalUrl(),
    viewport: { width: options.width ?? 1400, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'reduce',
  };
}

/**
 * Signs in through the portal's login page and the embedded provider's sign-in form. A demo user's
 * password is its name; a user of `tenantUserWith` has the operator's.
 */
export async function signIn(page: Page, userName: string, startPath = '/', password = userName): Promise<void> {
  await page.goto(startPath);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/oidc') && !url.pathname.startsWith('/user/'));
}

// ---------------------------------------------------------------------------------------------
// Signed-in users

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A user's stored sign-in: what a new browser context starts from, and the API token. */
export interface Session {
  user: UserName;
  storageState: StorageState;
  /** The bearer access token of the stored sign-in. */
  token: string;
  /** Seconds since the epoch when the token expires. */
  expiresAt: number;
  /** The user as the portal knows them: tenant, mail. */
  me: CurrentUser;
}

/**
 * A stored sign-in is handed out while its token has this long to live: more than any one test
 * file takes, and less than the token's 15 minutes, so a test never holds a token that expires
 * under it and a page never has to renew one.
 */
const SESSION_REUSE_MS = 10 * 60_000;

const sessions = new Map<UserName, Promise<Session>>();

/**
 * The user's sign-in, made once through the login form and kept (in the browser tests' data
 * folder) for the files that follow, until its token gets old.
 */
export function sessionOf(browser: Browser, user: UserName): Promise<Session> {
  let session = sessions.get(user);
  if (!session) {
    session = storedSession(user).then((stored) => stored ?? newSession(browser, user));
    sessions.set(user, session);
    // A failed sign-in is not kept: the next test tries again.
    session.catch(() => sessions.delete(user));
  }
  return session;
}

const sessionFile = (user: UserName) => path.join(inject('portalDataDir'), 'e2e-sessions', `${user}.json`);

async function storedSession(user: UserName): Promise<Session | undefined> {
  try {
    const session = JSON.parse(await fs.readFile(sessionFile(user), 'utf8')) as Session;
    return session.expiresAt * 1000 - Date.now() > SESSION_REUSE_MS ? session : undefined;
  } catch {
    return undefined;
  }
}

async function newSession(browser: Browser, user: UserName): Promise<Session> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await signIn(page, user);
    const storageState = await context.storageState();
    const stored = storageState.origins
      .flatMap((origin) => origin.localStorage)
      .find((item) => item.name.startsWith(USER_STORE_PREFIX));
    const { access_token: token, expires_at: expiresAt } = JSON.parse(stored?.value ?? '{}') as {
      access_token?: string;
      expires_at?: number;
    };
    if (!token || !expiresAt) throw new Error(`${user} signed in, but no sign-in was stored`);
    const session: Session = {
      user,
      storageState,
      token,
      expiresAt,
      me: await callApi<CurrentUser>(token, '/v1/currentUser'),
    };
    const file = sessionFile(user);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(`${file}.tmp`, JSON.stringify(session));
    await fs.rename(`${file}.tmp`, file);
    return session;
  } finally {
    await context.close();
  }
}

export interface PageOptions extends ContextOptions {
  /** Browser permissions, e.g. `['clipboard-read', 'clipboard-write']`. */
  permissions?: string[];
  /** A browser context of the test's own, for a test that changes what the browser keeps (the stored sign-in, the theme). */
  ownContext?: boolean;
  /**
   * Playwright's clock, in a context of the test's own (the clock holds for a whole context),
   * installed before the page loads so that every timer of the app is the clock's: a timer set
   * before an install would stay a real one that the app can no longer clear. Time flows as
   * usual until the test stops it (`pauseClock`).
   */
  clock?: boolean;
}

/** Per browser: the contexts the tests of a file open their pages in, one per user and options. */
const sharedContexts = new WeakMap<Browser, Map<string, Promise<BrowserContext>>>();

/**
 * A new page signed in as the user (from the stored sign-in), closed when the test ends. Call it
 * inside a test; the page is blank until the test goes somewhere. The pages of a file's tests
 * share one browser context per user, and so its cache of the portal's scripts, unless a test
 * asks for a context of its own.
 *
 * @example
 *   const page = await signedInPage(browser, 'operator');
 *   await page.goto('/workunitsv2');
 */
export async function signedInPage(browser: Browser, user: UserName, options: PageOptions = {}): Promise<Page> {
  if (options.ownContext || options.clock) {
    const context = await signedInContext(browser, user, options);
    onTestFinished(() => context.close());
    if (options.clock) await context.clock.install();
    return describedOnFailure(await context.newPage());
  }
  const contexts = sharedContexts.get(browser) ?? new Map<string, Promise<BrowserContext>>();
  sharedContexts.set(browser, contexts);
  const key = JSON.stringify([
    user,
    options.width,
    options.height,
    options.colorScheme,
    options.reducedMotion,
    options.permissions,
  ]);
  let context = contexts.get(key);
  if (!context) {
    context = signedInContext(browser, user, options);
    contexts.set(key, context);
    context.catch(() => contexts.delete(key));
  }
  const page = await (await context).newPage();
  onTestFinished(() => page.close());
  return describedOnFailure(page);
}

/**
 * When the test fails, says where the page was and what it showed (its first lines of text),
 * so that a failure seen only in a full run tells a page that never drew from one that drew
 * something else: a sign-in screen, an error.
 */
function describedOnFailure(page: Page): Page {
  // Registered after the hook that closes the page, so it runs before it (they run last first).
  onTestFinished(async ({ task }) => {
    if (task.result?.state !== 'fail' || page.isClosed()) return;
    const text = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch((error: unknown) => `(no text: ${String(error)})`);
    console.error(`The page at ${page.url()} showed: ${text.replace(/\s*\n\s*/g, ' · ').slice(0, 1000)}`);
  });
  return page;
}

async function signedInContext(browser: Browser, user: UserName, options: PageOptions): Promise<BrowserContext> {
  const { storageState } = await sessionOf(browser, user);
  const context = await newContext(browser, options, storageState);
  if (options.permissions) await context.grantPermissions(options.permissions, { origin: portalUrl() });
  await keepRenderer(context);
  return context;
}

/** The contexts' keeper pages (keepRenderer). */
const keepers = new WeakSet<Page>();

/**
 * Keeps a page of the portal open in the context for as long as the context lives (its `keeper`,
 * not a page of any test), so that the renderer process the context's pages share
 * (`--process-per-site`) lives on from one test's page to the next, with the portal's scripts
 * already compiled in it. Without it each test's page started a renderer of its own and compiled
 * the app again: a new page took 1.0 s to show the login screen, against 0.7 s this way.
 */
async function keepRenderer(context: BrowserContext): Promise<void> {
  const keeper = await context.newPage();
  await keeper.goto('/healthz');
  keepers.add(keeper);
}

/** The pages open in the page's context that tests opened (the context's keeper left out). */
export function openPages(page: Page): Page[] {
  return page
    .context()
    .pages()
    .filter((open) => !keepers.has(open));
}

/** The tenant the user works in (admin and operator: Contoso). */
export function homeTenantId(session: Session): string {
  if (!session.me.tenantId) throw new Error(`${session.user} has no tenant`);
  return session.me.tenantId;
}

// ---------------------------------------------------------------------------------------------
// The portal's API

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function callApi<T>(token: string, path: string, init: { method?: Method; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const response = await fetch(`${portalUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A call to the portal's API as the session's user: a test making its data or checking what the server holds. */
/** A tenant the user's tenant lookup offers, by name. */
export async function tenantNamed(browser: Browser, user: UserName, name: string): Promise<TenantLookup> {
  const tenant = (await api<TenantLookup[]>(await sessionOf(browser, user), '/api/generallookup/tenants')).find(
    (candidate) => candidate.name === name,
  );
  if (!tenant) throw new Error(`No tenant ${name} for ${user}`);
  return tenant;
}

export function api<T>(session: Session, path: string, init: { method?: Method; body?: unknown } = {}): Promise<T> {
  return callApi<T>(session.token, path, init);
}

/** A bearer token for API calls from a test, read from the signed-in page's stored sign-in. */
export async function storedAccessToken(page: Page): Promise<string> {
  const token = await page.evaluate((prefix) => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix))
        return (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
    }
    return undefined;
  }, USER_STORE_PREFIX);
  if (!token) throw new Error('No stored sign-in');
  return token;
}

/** A call to the portal's API with the page's stored bearer token: a test's own check of what the server says. */
export async function serverCall<T>(
  page: Page,
  path: string,
  init: { method?: Method; body?: unknown } = {},
): Promise<T> {
  return callApi<T>(await storedAccessToken(page), path, init);
}

/**
 * The typed client of the portal's API (`@cfs/client`, generated from its document) as the
 * session's user: what the factories below make a test's data with, so that a change to the API
 * that breaks them fails the typecheck.
 */
function clientOf(session: Session): PortalClient {
  return createPortalClient({ baseUrl: portalUrl(), token: session.token });
}

/** The body of a PUT that creates a row, any of its fields given by the test. */
type Fields<Path extends keyof paths> = Partial<RequestBody<Path, 'put'>>;

/** The fields of a work unit a test may give (the API's `PUT /api/v1/workunits` body). */
type WorkUnitFields = Fields<'/api/v1/workunits'>;

export interface ListResponse<T> {
  '@odata.count'?: number;
  value: T[];
}

// ---------------------------------------------------------------------------------------------
// A test's own data

/** A name no other test uses: `E2E printer 3f9c2a1b`. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

export type WorkUnitRow = JsonOf<WorkUnit>;

/** A work unit made through the API: by default a New Sev2 incident of the user's tenant with a unique title. */
export function createWorkUnit(session: Session, fields: WorkUnitFields = {}): Promise<WorkUnitRow> {
  return ok(
    clientOf(session).PUT('/api/v1/workunits', {
      body: {
        workUnitId: -1,
        title: uniqueName('E2E work unit'),
        severityId: 2,
        stateId: WORK_UNIT_STATES.New,
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
        tenantId: homeTenantId(session),
        ...fields,
      },
    }),
  );
}

/** A change request with every field the spec requires; its approver is someone other than the session's user (nobody names themselves). */
export function createChangeRequest(
  session: Session,
  fields: WorkUnitFields & { approver1: string },
): Promise<WorkUnitRow> {
  return createWorkUnit(session, {
    title: uniqueName('E2E change'),
    workUnitTypeId: WORK_UNIT_TYPES.ChangeRequest,
    resolution: 'Firmware 2.4 on all floor printers.',
    implementationPlan: 'Push firmware through the print server.',
    rollbackPlan: 'Reflash firmware 2.3.',
    affectedResources: 'Floor printers',
    environment: 'Production',
    expectedCFSAlerts: 'Printer offline alerts',
    plannedStartTime: '2027-03-05T10:00:00Z',
    plannedFinishTime: '2027-03-05T12:00:00Z',
    ...fields,
  });
}

/** Changes fields of a work unit through a JSON Patch (no `test` operations: the test owns the unit). */
export function updateWorkUnit(session: Session, workUnitId: number, changes: WorkUnitFields): Promise<WorkUnitRow> {
  const patch = Object.entries(changes).map(([field, value]) => ({ op: 'replace' as const, path: `/${field}`, value }));
  return ok(clientOf(session).PATCH('/v1/workunits/{id}', { params: { path: { id: workUnitId } }, body: patch }));
}

/** A tenant made through the API, with a unique name unless given one. */
export function createTenant(session: Session, fields: Fields<'/v1/tenants'> = {}): Promise<JsonOf<Tenant>> {
  return ok(clientOf(session).PUT('/v1/tenants', { body: { name: uniqueName('E2E tenant'), ...fields } }));
}

export function createSubscription(
  session: Session,
  tenantId: string,
  name = uniqueName('E2E subscription'),
): Promise<JsonOf<Subscription>> {
  return ok(clientOf(session).PUT('/v1/subscriptions', { body: { tenantId, name } }));
}

/** A tenant token of the user's tenant, one year, with a unique name. */
export function createToken(session: Session, fields: Fields<'/v1/tokens'> = {}): Promise<JsonOf<GeneratedToken>> {
  return ok(
    clientOf(session).PUT('/v1/tokens', {
      body: { tenantId: homeTenantId(session), name: uniqueName('e2e-token'), lifetimeYears: 1, ...fields },
    }),
  );
}

/**
 * An agent that enrols with a tenant token (`createToken`'s `generatedToken`): a pending device of
 * the token's tenant, pinging now. Answers the pending device's id.
 */
export async function enrolAgent(token: string, machineName: string, operatingSystem = 'win32'): Promise<string> {
  const response = await fetch(`${portalUrl()}/v1/agent/enrol`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      agentKey: randomBytes(32).toString('base64url'),
      machineName,
      operatingSystem,
      architecture: 'x64',
    }),
  });
  if (!response.ok) throw new Error(`enrol: ${response.status} ${await response.text()}`);
  const { pendingDeviceId } = (await response.json()) as { pendingDeviceId: string };
  return pendingDeviceId;
}

/** Reports packets as an agent or a script does, with a tenant token (`createToken`'s `generatedToken`). */
export async function reportPackets(token: string, packets: unknown[]): Promise<void> {
  const response = await fetch(`${portalUrl()}/v1/packets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(packets),
  });
  if (!response.ok) throw new Error(`POST /v1/packets answered ${response.status}: ${await response.text()}`);
}

// ---------------------------------------------------------------------------------------------
// Time

/**
 * Stops the page's time (Playwright's clock, from `signedInPage(…, { clock: true })`): from here
 * its timers (toasts, tooltips, debounces, polling) run only as the test moves time on with
 * `page.clock.runFor(ms)` or `runClockUntil`; `page.clock.resume()` lets time flow again.
 */
export async function pauseClock(page: Page): Promise<void> {
  // The page's clock started at the real time and flows with it: stop it a moment ahead.
  await page.clock.pauseAt(Date.now() + 1000);
}

/**
 * Moves the paused clock on in steps until `done` holds, so that what each step sets off (a
 * render, the next transition timer) happens before the next. Answers the time moved on; fails
 * when `maxMs` pass without it.
 */
export async function runClockUntil(
  page: Page,
  done: () => Promise<boolean>,
  { stepMs = 50, maxMs }: { stepMs?: number; maxMs: number },
): Promise<number> {
  for (let moved = 0; moved <= maxMs; moved += stepMs) {
    if (await done()) return moved;
    await page.clock.runFor(stepMs);
  }
  throw new Error(`Still waiting after ${maxMs} ms of the page's time`);
}

// ---------------------------------------------------------------------------------------------
// Screens

/** Saves a screenshot under .tmp/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.resolve(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Screenshots at a desktop (1440 px) and a phone (375 px) width, `<name>-1440.png` and `<name>-375.png`; the viewport is put back after. */
export async function screenshotAtWidths(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1400, height: 900 };
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: viewport.height });
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize(viewport);
}

/**
 * Waits for a toast with this text on the screen. The same text may also be on a toast on its way
 * out (hidden while it collapses): only a visible one counts.
 */
export async function toastShown(page: Page, message: string): Promise<void> {
  await page
    .locator('#notistack-snackbar')
    .getByText(message, { exact: true })
    .filter({ visible: true })
    .first()
    .waitFor();
}

/** The open side drawer (the one with a Close button). */
export function drawer(page: Page): Locator {
  return page.locator('.MuiDrawer-paper').filter({ has: page.getByRole('button', { name: 'Close', exact: true }) });
}

/** A grid row by a text it shows. */
export function gridRow(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

/** How far the grid's rows reach past its visible width (0 or less: nothing to scroll to). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page
    .locator('.MuiDataGrid-virtualScroller')
    .first()
    .evaluate((element) => element.scrollWidth - element.clientWidth);
}

/** The header titles whose text is cut (an ellipsis, or more text than room). */
export function truncatedHeaders(page: Page): Promise<string[]> {
  return page
    .locator('.MuiDataGrid-columnHeaderTitle')
    .evaluateAll((titles) =>
      titles
        .filter((title) => title.scrollWidth > title.clientWidth || title.scrollHeight > title.clientHeight)
        .map((title) => title.textContent ?? ''),
    );
}

/** Picks one of a row's less frequent actions from its "More Actions" menu (`RowAction.inMenu`). */
export async function moreAction(row: Locator, label: string): Promise<void> {
  await row.getByRole('button', { name: 'More Actions' }).click();
  await row.page().getByRole('menuitem', { name: label }).click();
}

/**
 * Checks a grid row's box. A click that lands while the grid draws its rows again (a poll's
 * answer) can be lost, so the box is checked again until it stays checked.
 */
export async function checkRow(row: Locator): Promise<void> {
  const box = row.getByRole('checkbox');
  await expect
    .poll(
      async () => {
        await box.check({ timeout: 5_000 }).catch(() => undefined);
        return box.isChecked();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/**
 * A wait (for a response, a request, a download) begun before the step that causes it. It is
 * handled at once: when the step fails first, the test fails there, and the wait's own timeout
 * later is not an unhandled rejection that fails the run after the test passed on its retry.
 * Awaiting it still throws.
 *
 * @example
 *   const answered = awaitLater(page.waitForResponse((response) => response.url().includes('/v1/devices')));
 *   await page.getByRole('button', { name: 'Refresh' }).click();
 *   expect((await answered).status()).toBe(200);
 */
export function awaitLater<T>(wait: Promise<T>): Promise<T> {
  void wait.catch(() => undefined);
  return wait;
}

/**
 * Searches a grid (the toolbar's Search box, applied on Enter) for a text its rows show, and
 * waits until the grid shows the answer: rows that all hold the text (the rows of before may
 * hold it too, and a click on one of them could land on the row that replaces it). `scope`
 * picks one grid of several.
 */
export async function searchGrid(scope: Page | Locator, text: string): Promise<void> {
  const box = scope.getByRole('textbox', { name: 'Search' });
  const page = 'page' in scope ? scope.page() : scope;
  const answered = awaitLater(
    page.waitForResponse((response) =>
      (new URL(response.url()).searchParams.get('$filter') ?? '').includes(text.toLowerCase().replaceAll("'", "''")),
    ),
  );
  await box.fill(text);
  await box.press('Enter');
  await answered;
  const rows = scope.locator('.MuiDataGrid-row');
  await expect
    .poll(
      async () => {
        const texts = await rows.allTextContents();
        return texts.length > 0 && texts.every((row) => row.toLowerCase().includes(text.toLowerCase()));
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

/** Fills the open Create Token drawer (a name, a lifetime of 1 year) and saves it; the drawer. */
export async function saveNewToken(page: Page, name: string): Promise<Locator> {
  const panel = drawer(page);
  await panel.getByRole('heading', { name: 'Create Token' }).waitFor();
  await panel.getByRole('textbox', { name: 'Name' }).fill(name);
  await choose(panel, page, 'Lifetime', '1 year');
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  return panel;
}

/** Waits until the element and what it holds stop moving (MUI's grow, fade and collapse transitions), e.g. before a screenshot. */
export async function settled(locator: Locator): Promise<void> {
  await locator.waitFor();
  await expect
    .poll(
      () =>
        locator.evaluate(
          (element) =>
            element.getAnimations({ subtree: true }).filter((animation) => animation.playState === 'running').length,
        ),
      {
        timeout: 5000,
      },
    )
    .toBe(0);
}

export async function choose(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  // The menu grows in; a click while it is still growing can land on no option and leave it open.
  const listbox = page.getByRole('listbox');
  await settled(listbox);
  await listbox.getByRole('option', { name: option, exact: true }).click();
  await listbox.waitFor({ state: 'hidden' });
}

/**
 * A client of the portal's embedded database server, found from its data folder as the portal
 * found it: for what a test must write behind the portal's back (a million rows, a clock moved).
 */
export async function portalDatabase(): Promise<pg.Client> {
  const dataDir = inject('portalDataDir');
  // postmaster.pid: pid, data folder, start time, port, socket folder, listen address, …
  const lines = (await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  const password = (await fs.readFile(path.join(dataDir, 'keys', 'postgres-password'), 'utf8')).trim();
  const host = lines[4]?.trim() || lines[5]?.trim() || '127.0.0.1';
  const client = new pg.Client({ host, port: Number(lines[3]), user: 'portal', password, database: 'postgres' });
  await client.connect();
  return client;
}

/**
 * Waits until a run of the recurring task `task` that began at or after `since` (by default the
 * database's now) has finished: a sweep that has read what the test wrote before then (a recurring
 * run's `run_at` is the start of its period), so that a test can tell "not sent again" without
 * sleeping a guessed time. Both times are the database's clock.
 */
export async function sweptSince(db: pg.Client, task: string, since?: Date): Promise<void> {
  since ??= (await db.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
  await expect
    .poll(
      async () =>
        (await db.query("SELECT 1 FROM job WHERE task = $1 AND run_at >= $2 AND state = 'done' LIMIT 1", [task, since]))
          .rowCount,
      { timeout: 60_000, interval: 500 },
    )
    .toBe(1);
}

/**
 * A user of one tenant holding only `permissions` (`Area:verb`), written behind the portal's back
 * (no screen makes users): the operator's password, a role of its own named after the user.
 * Answers the user name, to sign in with.
 */
export async function tenantUserWith(
  tenantId: string,
  permissions: readonly string[],
  displayName: string,
): Promise<string> {
  const userName = uniqueName('user').replace(' ', '-');
  const client = await portalDatabase();
  try {
    const role = await client.query<{ role_id: number }>(
      'INSERT INTO app_role (name, description) VALUES ($1, $2) RETURNING role_id',
      [userName, permissions.join(', ')],
    );
    const roleId = role.rows[0]?.role_id;
    for (const permission of permissions)
      await client.query('INSERT INTO role_permission (role_id, permission) VALUES ($1, $2)', [roleId, permission]);
    const user = await client.query<{ user_id: string }>(
      `INSERT INTO app_user (user_name, display_name, email, password_hash, tenant_id)
       SELECT $1, $2, NULL, password_hash, $3 FROM app_user WHERE user_name = 'operator' RETURNING user_id`,
      [userName, displayName, tenantId],
    );
    const userId = user.rows[0]?.user_id;
    await client.query('INSERT INTO user_role (user_id, role_id) VALUES ($1, $2)', [userId, roleId]);
    await client.query('INSERT INTO user_tenant (user_id, tenant_id) VALUES ($1, $2)', [userId, tenantId]);
  } finally {
    await client.end();
  }
  return userName;
}

// ---------------------------------------------------------------------------------------------
// Automation: actions, protocols and a local endpoint they call

/** An action definition of the user's tenant (a Protocol or Rule Action) calling `endpointUrl`, with a unique name. */
export function createActionDefinition(
  session: Session,
  fields: Fields<'/v1/actionDefinitions'> & { endpointUrl: string },
): Promise<JsonOf<ActionDefinition>> {
  return ok(
    clientOf(session).PUT('/v1/actionDefinitions', {
      body: {
        name: uniqueName('E2E action'),
        actionDefinitionTypeId: 4,
        tenantId: homeTenantId(session),
        httpMethod: 'POST',
        ...fields,
      },
    }),
  );
}

/** A protocol of the user's tenant with a unique name. */
export function createProtocol(session: Session, fields: Fields<'/v1/protocols'> = {}): Promise<JsonOf<Protocol>> {
  return ok(
    clientOf(session).PUT('/v1/protocols', {
      body: { name: uniqueName('E2E protocol'), tenantId: homeTenantId(session), ...fields },
    }),
  );
}

/** A step of a protocol; manual (not run automatically) unless told otherwise. */
export function createProtocolAction(
  session: Session,
  fields: RequestBody<'/v1/protocolActions', 'put'>,
): Promise<JsonOf<ProtocolAction>> {
  return ok(clientOf(session).PUT('/v1/protocolActions', { body: { runAutomatically: false, ...fields } }));
}

/**
 * After a manual step is run or rejected in the work unit panel, the panel reads its lists again
 * 5 s later: on a page with Playwright's clock (`clock: true`), this waits until the server holds
 * the step's outcome (its last run's result, one of ACTION_RESULT_STATUSES) and then moves the
 * page's clock on by those 5 s, instead of waiting for them.
 */
export async function refreshAfterManualAction(
  page: Page,
  session: Session,
  workUnitId: number,
  summary: string,
  result: number,
): Promise<void> {
  const lastResult = async () => {
    const actions = await api<JsonOf<ManualAction>[]>(
      session,
      `/v1/workunits/${workUnitId}/manualActions?scope=current`,
    );
    return actions.find((action) => action.summary === summary)?.lastRun?.resultStatusId;
  };
  await expect.poll(lastResult, { timeout: 20_000 }).toBe(result);
  await page.clock.runFor(POST_ACTION_REFRESH_MS);
}

export interface ReceivedCall {
  method: string;
  path: string;
  body: string;
}

/**
 * A real HTTP endpoint on 127.0.0.1 for actions to call, answering 200 with `{"ok":true}`; it
 * keeps what it received and closes when the test ends. (The portal's outbound guard lets the
 * browser tests' portal reach loopback: OUTBOUND_ALLOW in global-setup.ts.)
 */
export async function actionEndpoint(): Promise<{ url: string; calls: ReceivedCall[] }> {
  const calls: ReceivedCall[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      calls.push({ method: request.method ?? '', path: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/**
 * A tenant's package "Line Agent" written behind the portal's back (the Version report's data),
 * a maker of its versions (`await version('1.1.0', status)` answers the new version's id), and a
 * maker of a device of a subscription of that tenant with one of those versions installed.
 */
export async function insertLinePackage(
  db: pg.Client,
  tenantId: string,
): Promise<{
  packageId: string;
  version: (text: string, status: number) => Promise<string>;
  installedOn: (deviceName: string, subscriptionId: string, versionId: string) => Promise<void>;
}> {
  const pkg = await db.query<{ package_id: string }>(
    `INSERT INTO package (tenant_id, name, package_type_id, operating_system_ids) VALUES ($1, 'Line Agent', 1, '{1}') RETURNING package_id`,
    [tenantId],
  );
  const packageId = pkg.rows[0]!.package_id;
  const version = async (text: string, status: number) =>
    (
      await db.query<{ package_version_id: string }>(
        `INSERT INTO package_version (package_id, version, label, package_version_status_id, file_sha256, file_name, file_size) VALUES ($1, $2, $2, $3, $4, 'agent.zip', 1) RETURNING package_version_id`,
        [packageId, text, status, randomBytes(32).toString('hex')],
      )
    ).rows[0]!.package_version_id;
  const installedOn = async (deviceName: string, subscriptionId: string, versionId: string) => {
    const device = await db.query<{ device_id: string }>(
      `INSERT INTO device (tenant_id, subscription_id, name) VALUES ($1, $2, $3) RETURNING device_id`,
      [tenantId, subscriptionId, deviceName],
    );
    await db.query(
      `INSERT INTO device_installation (device_id, package_id, tenant_id, package_version_id, installed_package_version_id, install_status_id) VALUES ($1, $2, $3, $4, $4, 2)`,
      [device.rows[0]!.device_id, packageId, tenantId, versionId],
    );
  };
  return { packageId, version, installedOn };
}
