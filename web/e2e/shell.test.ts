import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, onTestFinished, test } from 'vitest';
import { FORBIDDEN_TOAST_MS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import type { SubscriptionLookup } from '@cfs/contracts/shell';
import { EULA_PARAGRAPHS } from '../src/app/eula';
import { SPEC_ADMINISTRATION_ORDER, SPEC_MENU_ORDER } from '../src/app/menu-order';
import {
  api,
  browser,
  homeTenantId,
  newContext,
  pauseClock,
  portalUrl,
  runClockUntil,
  screenshot,
  serverCall,
  sessionOf,
  settled,
  signedInPage,
  signIn,
  tenantNamed,
  type PageOptions,
  type UserName,
} from './support';

/**
 * The portal shell in the browser (spec 000): sign-in, the menu per permission set, tenant
 * context, theme, profile menu, License dialog, 404, and the 401/403 handling. Each user signs
 * in once; every test opens its own page from that sign-in, and a test that changes what the
 * browser keeps (the theme, the stored sign-in) or stops its clock has a browser context of its own.
 */

/** Operators hold neither Tenants nor Settings edit: no Tenants, no Outbox (Service Levels they read). */
const STAFF_MENU = [
  { group: 'Menu', items: SPEC_MENU_ORDER },
  {
    group: 'Administration',
    items: SPEC_ADMINISTRATION_ORDER.filter((item) => item !== 'Tenants' && item !== 'Outbox'),
  },
];

const FORBIDDEN_TOAST = 'You do not have access to one or more requested resources';
const ACCESS_DENIED = 'You do not have access. Please contact your system administrator for access.';
const USER_STORE_PREFIX = 'cfs-portal.user:';
const TENANT_PATH = /^\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

interface EnvironmentInfo {
  environmentName: string;
  environmentColor: string;
  licenseExpiration: string | null;
}

/** A page of the user's on their home, `/{tenantId}`. */
async function homePage(user: UserName, options: PageOptions = {}): Promise<Page> {
  const page = await signedInPage(browser, user, options);
  await page.goto(`/${homeTenantId(await sessionOf(browser, user))}`);
  await page.getByRole('heading', { name: 'Home' }).waitFor();
  return page;
}

function mainMenu(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main menu' });
}

/** The sidebar's groups and their items, in order, as the user sees them. */
async function sidebarMenu(page: Page): Promise<{ group: string; items: string[] }[]> {
  await mainMenu(page).getByRole('link').first().waitFor();
  return mainMenu(page)
    .getByRole('list')
    .evaluateAll((lists) =>
      lists.map((list) => ({
        group: list.querySelector('.MuiListSubheader-root')?.textContent ?? '',
        items: [...list.querySelectorAll('a')].map((link) => link.textContent ?? ''),
      })),
    );
}

/** Relative luminance (0 black … 1 white) of an element's computed background colour. */
async function backgroundLuminance(locator: Locator): Promise<number> {
  const colour = await locator.evaluate((element) => getComputedStyle(element).backgroundColor);
  const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

async function storedSignInKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    (prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)),
    USER_STORE_PREFIX,
  );
}

/** After Login: the provider asks for credentials unless its own session is still open. */
async function completeSignIn(page: Page, userName: string, landsOn: (url: URL) => boolean): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/') || landsOn(url));
  if (new URL(page.url()).pathname.startsWith('/oidc/interaction/')) {
    await page.getByLabel('User name').fill(userName);
    await page.getByLabel('Password').fill(userName);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(landsOn);
  }
}

function tenantPickerButton(page: Page): Locator {
  return page.getByRole('button', { name: /^Tenant and subscription:/ });
}

/** A browser context nobody is signed in to, closed when the test ends. */
async function signedOutPage(): Promise<Page> {
  const context = await newContext(browser);
  onTestFinished(() => context.close());
  return context.newPage();
}

describe('as admin', () => {
  test('admin signs in from the login page through the provider form and lands on the home of their tenant', async () => {
    const page = await signedOutPage();
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/user/login');
    await page.getByRole('heading', { name: 'CFS' }).waitFor();
    const login = page.getByRole('button', { name: 'Login' });
    await login.waitFor();
    await screenshot(page, 'shell-login-page');

    await login.click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill('admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => TENANT_PATH.test(url.pathname));

    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    expect((await serverCall<{ tenantId: string | null }>(page, '/v1/currentUser')).tenantId).toBe(contoso.tenantId);
    expect(new URL(page.url()).pathname).toBe(`/${contoso.tenantId}`);
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  test('Login while the sign-in service cannot be reached says so, not the browser\'s "Failed to fetch", and works once it is back', async () => {
    const page = await signedOutPage();
    const discovery = '**/oidc/.well-known/openid-configuration';
    await page.route(discovery, (route) => route.abort('connectionrefused'));
    await page.goto('/');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('alert').filter({ hasText: SHELL_MESSAGES.signInUnavailable }).waitFor();
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    await screenshot(page, 'shell-login-unavailable');

    await page.unroute(discovery);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
  });

  test('admin sees the Menu and Administration groups with every item', async () => {
    const page = await homePage('admin');
    expect(await sidebarMenu(page)).toEqual([
      { group: 'Menu', items: SPEC_MENU_ORDER },
      { group: 'Administration', items: SPEC_ADMINISTRATION_ORDER },
    ]);
    await screenshot(page, 'shell-admin-home');
  });

  test('the sidebar is 260 px wide at desktop width and its logo link goes to /{tenantId}', async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const page = await homePage('admin');
    const sidebar = page.locator('.MuiDrawer-paper').filter({ has: mainMenu(page) });
    expect((await sidebar.boundingBox())?.width).toBe(260);

    await mainMenu(page).getByRole('link', { name: 'Rules' }).click();
    await page.waitForURL(`**/${contoso.tenantId}/rules`);
    const logo = page.getByRole('link', { name: 'Home' });
    expect(await logo.getAttribute('href')).toBe(`/${contoso.tenantId}`);
    await logo.click();
    await page.waitForURL((url) => url.pathname === `/${contoso.tenantId}`);
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  test('the fixed header is exactly as tall as the space the layout reserves under it, so it hides none of the page', async () => {
    const page = await homePage('admin');
    const header = await page.locator('header').boundingBox();
    const spacer = await page.locator('main > .MuiToolbar-root').boundingBox();
    expect(header?.height).toBeGreaterThan(0);
    expect(header?.height).toBe(spacer?.height);
  });

  test('the menu item of the current path is highlighted, and only that one', async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const page = await homePage('admin');
    await mainMenu(page).getByRole('link', { name: 'Devices', exact: true }).click();
    await page.waitForURL(`**/${contoso.tenantId}/devices`);
    const current = mainMenu(page).locator('a[aria-current="page"]');
    await expect.poll(() => current.allTextContents(), { timeout: 5000 }).toEqual(['Devices']);
    expect(await current.getAttribute('class')).toContain('Mui-selected');

    await mainMenu(page).getByRole('link', { name: 'Blocks' }).click();
    await page.waitForURL(`**/${contoso.tenantId}/blocks`);
    await expect.poll(() => current.allTextContents(), { timeout: 5000 }).toEqual(['Blocks']);
    expect(
      await mainMenu(page).getByRole('link', { name: 'Devices', exact: true }).getAttribute('class'),
    ).not.toContain('Mui-selected');
  });

  test('an area page (Compliance) shows its header and titles the document "Compliance - {environment name}"', async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const environment = await api<EnvironmentInfo>(await sessionOf(browser, 'admin'), '/api/generalLookup/environment');
    const page = await homePage('admin');
    await mainMenu(page).getByRole('link', { name: 'Compliance', exact: true }).click();
    await page.waitForURL(`**/${contoso.tenantId}/compliance`);
    await page.getByRole('heading', { level: 1, name: 'Compliance' }).waitFor();
    // "CFS Portal" unless the server is configured with another environment name.
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe(`Compliance - ${environment.environmentName}`);
  });

  test('a first visit starts light even where the system prefers dark', async () => {
    const context = await newContext(browser, { colorScheme: 'dark' });
    onTestFinished(() => context.close());
    const page = await context.newPage();
    await page.goto('/user/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await backgroundLuminance(page.locator('body'))).toBeGreaterThan(0.8);
  });

  test('the theme starts light; the header switch turns the app dark and back to light', async () => {
    const page = await homePage('admin', { ownContext: true });
    const body = page.locator('body');
    const header = page.locator('header');
    expect(await backgroundLuminance(body)).toBeGreaterThan(0.8);
    expect(await backgroundLuminance(header)).toBeGreaterThan(0.8);

    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect.poll(() => backgroundLuminance(body), { timeout: 5000 }).toBeLessThan(0.05);
    expect(await backgroundLuminance(header)).toBeLessThan(0.05);
    await settled(page.locator('header'));
    await screenshot(page, 'shell-dark-theme');

    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await expect.poll(() => backgroundLuminance(body), { timeout: 5000 }).toBeGreaterThan(0.8);
    expect(await backgroundLuminance(header)).toBeGreaterThan(0.8);
  });

  test('an unknown path shows "Page Not Found" with a link home, in the light and, after switching, the dark theme', async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const page = await signedInPage(browser, 'admin', { ownContext: true });
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await backgroundLuminance(page.locator('main'))).toBeGreaterThan(0.8);
    await screenshot(page, 'shell-404-light');

    await page.getByRole('link', { name: 'Go to home' }).click();
    await page.waitForURL((url) => url.pathname === `/${contoso.tenantId}`);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.getByRole('button', { name: 'Switch to light mode' }).waitFor();

    await page.goto(`/${contoso.tenantId}/no-such-area`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await backgroundLuminance(page.locator('main'))).toBeLessThan(0.05);
    await screenshot(page, 'shell-404-dark');

    await page.getByRole('link', { name: 'Go to home' }).click();
    await page.waitForURL((url) => url.pathname === `/${contoso.tenantId}`);
  });

  test('a page whose code is slow to come keeps the page on screen with the progress bar, where a click still acts on it; one whose code cannot come says so, and Try again opens it', async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const page = await signedInPage(browser, 'admin', { ownContext: true });
    await page.goto(`/${contoso.tenantId}/locations`);
    await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();

    const compliancePage = /\/assets\/compliance-page-[\w-]+\.js$/;
    /** Holds Compliance's code back until the answered function is called. */
    const holdCompliance = async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(compliancePage, async (route) => {
        await released;
        await route.continue();
      });
      return release;
    };
    const release = await holdCompliance();
    await page.getByRole('navigation').getByRole('link', { name: 'Compliance' }).click();
    await page.waitForURL((url) => url.pathname === `/${contoso.tenantId}/compliance`);
    // The address has moved on; the page on screen stays, under the bar, until the next one's code is in.
    await page.getByRole('progressbar', { name: 'Loading page' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Locations', level: 1 }).isVisible()).toBe(true);
    release();
    await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Loading page' }).count()).toBe(0);

    // A click on the page still on screen stays on it: sorting Locations while Compliance's code is
    // held sorts Locations, and Compliance does not come after all.
    await page.unroute(compliancePage);
    await page.goto(`/${contoso.tenantId}/locations`);
    await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();
    const releaseAgain = await holdCompliance();
    await page.getByRole('navigation').getByRole('link', { name: 'Compliance' }).click();
    await page.getByRole('progressbar', { name: 'Loading page' }).waitFor();
    await page.getByRole('columnheader', { name: 'City' }).click();
    await page.waitForURL((url) => url.pathname === `/${contoso.tenantId}/locations` && url.search.includes('city'));
    await page.getByRole('progressbar', { name: 'Loading page' }).waitFor({ state: 'detached' });
    const delivered = page.waitForResponse(compliancePage);
    releaseAgain();
    await delivered;
    // The module runs and its load settles within a frame or two of its arrival.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(new URL(page.url()).pathname).toBe(`/${contoso.tenantId}/locations`);
    expect(await page.getByRole('heading', { name: 'Locations', level: 1 }).isVisible()).toBe(true);

    const other = await signedInPage(browser, 'admin', { ownContext: true });
    await other.route(/\/assets\/tokens-page-[\w-]+\.js$/, (route) => route.abort());
    await other.goto(`/${contoso.tenantId}/tokens`);
    await other.getByText(/^Something went wrong: .+\. Please reload the page\.$/).waitFor();
    await other.unroute(/\/assets\/tokens-page-[\w-]+\.js$/);
    await other.getByRole('button', { name: 'Try again' }).click();
    await other.getByRole('heading', { name: 'Tenant Tokens', level: 1 }).waitFor();
  });

  test('the License dialog shows the expiration date and the whole days left from the server licenseExpiration, and reveals the EULA; the footer shows the version', async () => {
    const admin = await sessionOf(browser, 'admin');
    const { version } = await api<{ version: string }>(admin, '/api/generalLookup/version');
    const { licenseExpiration } = await api<EnvironmentInfo>(admin, '/api/generalLookup/environment');
    if (!licenseExpiration) throw new Error('The server reports no licence expiration');
    const page = await homePage('admin');
    await page.getByText(`Version ${version}`, { exact: true }).waitFor();

    const expires = new Date(licenseExpiration);
    const daysBefore = Math.trunc((expires.getTime() - Date.now()) / DAY_MS);

    await page.getByRole('button', { name: 'License', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'License' });
    // "Expiration Date Loading..." shows until the environment call answers (usually already cached).
    await dialog.getByText(/^Expiration Date: \d/).waitFor();
    const daysAfter = Math.trunc((expires.getTime() - Date.now()) / DAY_MS);
    expect(await dialog.getByText(/^Expiration Date: /).textContent()).toBe(
      `Expiration Date: ${expires.getDate()}/${MONTHS[expires.getMonth()]}/${expires.getFullYear()}`,
    );
    const daysLeft = (await dialog.getByText(/^Days Left: /).textContent())?.match(/^Days Left: (-?\d+)$/)?.[1];
    expect(daysLeft).toBeDefined();
    expect([daysBefore, daysAfter]).toContain(Number(daysLeft));

    const firstParagraph = dialog.getByText(EULA_PARAGRAPHS[0] ?? '');
    expect(await firstParagraph.isVisible()).toBe(false);
    await dialog.getByRole('button', { name: 'View End User License Agreement' }).click();
    await firstParagraph.waitFor({ state: 'visible' });
    await dialog.getByText(EULA_PARAGRAPHS.at(-1) ?? '').waitFor({ state: 'visible' });
    await settled(dialog);
    await screenshot(page, 'shell-license-dialog');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  test('the tenant picker clears the subscription when another tenant is chosen, and Save then asks "Please choose a subscription."', async () => {
    const page = await homePage('admin');
    await tenantPickerButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Tenant > Subscription' });
    await dialog.getByRole('combobox', { name: /^Tenant/ }).click();
    await page.getByRole('option', { name: 'Fabrikam', exact: true }).click();
    expect(await dialog.getByRole('combobox', { name: /^Subscription/ }).textContent()).not.toContain('Contoso');

    let contextPosts = 0;
    const countPosts = (request: Request) => {
      if (request.url().includes('/v1/tenantSubscriptionContext/')) contextPosts++;
    };
    page.on('request', countPosts);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Please choose a subscription.').waitFor();
    page.off('request', countPosts);
    expect(contextPosts).toBe(0);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  test('the tenant picker with nothing chosen shows "Please choose a tenant." and "Please choose a subscription." once the fields are touched, and Save stays disabled', async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    // A user without a stored tenant context: the profile call answers no tenant or subscription.
    const page = await signedInPage(browser, 'admin');
    await page.route('**/v1/session', async (route) => {
      const response = await route.fetch();
      const start = (await response.json()) as { currentUser: object };
      await route.fulfill({
        response,
        json: { ...start, currentUser: { ...start.currentUser, tenantId: null, subscriptionId: null } },
      });
    });
    await page.goto(`/${contoso.tenantId}/devices`);
    await tenantPickerButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Tenant > Subscription' });
    const save = dialog.getByRole('button', { name: 'Save' });
    const tenant = dialog.getByRole('combobox', { name: /^Tenant/ });
    // The fields are disabled until the tenant and subscription lookups answer.
    await expect.poll(() => tenant.getAttribute('aria-disabled'), { timeout: 5000 }).toBeNull();
    expect(await save.isDisabled()).toBe(true);

    await tenant.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await dialog.getByText('Please choose a tenant.').waitFor();
    await dialog.getByText('Please choose a subscription.').waitFor();
    expect(await save.isDisabled()).toBe(true);
  });

  test('the tenant picker: choosing Fabrikam and a Fabrikam subscription and saving reloads the same address with the tenant id replaced', async () => {
    const admin = await sessionOf(browser, 'admin');
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const subscriptions = await api<SubscriptionLookup[]>(admin, '/api/generallookup/subscriptions');
    const fabrikamSubscriptions = subscriptions
      .filter((subscription) => subscription.tenantId === fabrikam.tenantId)
      .map((subscription) => subscription.name);
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${contoso.tenantId}/devices?search=router%201`);
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    const timeOrigin = await page.evaluate(() => performance.timeOrigin);

    try {
      await tenantPickerButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Tenant > Subscription' });
      await dialog.getByRole('combobox', { name: /^Tenant/ }).click();
      await page.getByRole('option', { name: 'Fabrikam', exact: true }).click();
      await dialog.getByRole('combobox', { name: /^Subscription/ }).click();
      // Only the chosen tenant's subscriptions are offered (spec 000 §5).
      expect((await page.getByRole('option').allTextContents()).sort()).toEqual([...fabrikamSubscriptions].sort());
      await settled(page.locator('.MuiMenu-paper'));
      await screenshot(page, 'shell-tenant-picker-open');
      await page.getByRole('option', { name: 'Fabrikam Lab' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();

      await page.waitForURL(
        (url) => `${url.pathname}${url.search}` === `/${fabrikam.tenantId}/devices?search=router%201`,
      );
      await page.getByRole('button', { name: 'Tenant and subscription: Fabrikam > Fabrikam Lab' }).waitFor();
      // A full page load, not a client-side navigation.
      expect(await page.evaluate(() => performance.timeOrigin)).not.toBe(timeOrigin);
      expect(await serverCall<{ tenantId: string | null }>(page, '/v1/currentUser')).toMatchObject({
        tenantId: fabrikam.tenantId,
      });
    } finally {
      // admin's other tests start from Contoso Production.
      await api(admin, `/v1/tenantSubscriptionContext/${contoso.tenantId}`, {
        method: 'POST',
        body: { tenant: contoso.tenantId, subscriptionId: admin.me.subscriptionId },
      });
    }
  });

  test('the profile menu shows an avatar with "AA" for Ada Admin and a 290 px popup with the name', async () => {
    const page = await homePage('admin');
    const profile = page.getByRole('button', { name: 'Profile' });
    // The server's photo is a picture of the initials; without a photo the avatar shows them as text.
    const photo = profile.getByRole('img', { name: 'Ada Admin' });
    const src = (await photo.getAttribute('src')) ?? '';
    expect(src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(src.split(',')[1] ?? '', 'base64').toString()).toContain('>AA</text>');

    await page.route('**/api/auth/currentUserPhoto', (route) =>
      route.fulfill({ status: 404, json: { message: 'No photo' } }),
    );
    await page.reload();
    await expect.poll(() => profile.textContent(), { timeout: 5000 }).toBe('AA');
    await page.unroute('**/api/auth/currentUserPhoto');

    await profile.click();
    const popup = page.locator('.MuiPopover-paper');
    await popup.getByText('Ada Admin', { exact: true }).waitFor();
    // The popup grows in; measure once it has settled.
    await expect.poll(async () => (await popup.boundingBox())?.width, { timeout: 5000 }).toBe(290);
    await popup.getByText('admin', { exact: true }).waitFor();
    await popup.getByRole('button', { name: 'Log out' }).waitFor();
    await settled(popup);
    await screenshot(page, 'shell-profile-menu');
  });

  test('a page opened at another address of the portal (127.0.0.1 for localhost) is sent to PUBLIC_URL, where signing in works', async () => {
    const page = await signedOutPage();
    const canonical = new URL(portalUrl());
    const other = new URL(portalUrl());
    other.hostname = '127.0.0.1';
    await signIn(page, 'admin', `${other.origin}/tenants?from=link`);
    expect(new URL(page.url()).host).toBe(canonical.host);
    await page.getByRole('heading', { name: 'Tenants' }).waitFor();
  });

  test('Log out removes the stored sign-in and ends on /user/login; Login then asks for credentials again', async () => {
    // A sign-in of its own: logging out ends the provider's session.
    const page = await signedOutPage();
    await signIn(page, 'admin');
    // Opened again from the stored sign-in, the page has not loaded the sign-in library: Log out loads it.
    const scripts: string[] = [];
    page.on('request', (request) => void (request.url().endsWith('.js') && scripts.push(request.url())));
    await page.reload();
    await page.getByRole('button', { name: 'Profile' }).click();
    const isSignInLibrary = (url: string) => /\/assets\/oidc(-bridge)?-[\w-]+\.js$/.test(url);
    expect(scripts.filter(isSignInLibrary)).toEqual([]);
    expect(await storedSignInKeys(page)).toHaveLength(1);
    await page.locator('.MuiPopover-paper').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(scripts.some(isSignInLibrary)).toBe(true);
    expect(await storedSignInKeys(page)).toEqual([]);

    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('User name').waitFor();
    await page.getByLabel('Password').waitFor();
  });
});

describe('two tabs of one sign-in', () => {
  /** The sign-in the tabs share, as stored (oidc-client-ts keeps it in localStorage). */
  async function storedTokens(page: Page): Promise<{ access_token: string; refresh_token: string }> {
    const stored = await page.evaluate(
      (prefix) => Object.entries(localStorage).find(([key]) => key.startsWith(prefix))?.[1],
      USER_STORE_PREFIX,
    );
    return JSON.parse(stored ?? '{}') as { access_token: string; refresh_token: string };
  }

  test('renewing at the same moment stay signed in: the refresh token is spent by one, and the other takes its renewal', async () => {
    // A sign-in of its own, on the context's clock, so that both tabs' renewals come due together.
    const context = await newContext(browser);
    onTestFinished(() => context.close());
    await context.clock.install();
    const first = await context.newPage();
    await signIn(first, 'enduser');
    const second = await context.newPage();
    await second.goto('/');
    await second.getByRole('button', { name: 'Profile' }).waitFor();
    const before = await storedTokens(first);

    // 14.5 of the token's 15 minutes: past the moment each tab renews (a minute before expiry).
    await context.clock.runFor(870_000);
    await expect.poll(async () => (await storedTokens(first)).refresh_token).not.toBe(before.refresh_token);
    const after = await storedTokens(second);
    // Had both tabs spent the old refresh token, the provider would have ended the whole sign-in.
    expect(
      (await fetch(`${portalUrl()}/v1/currentUser`, { headers: { authorization: `Bearer ${after.access_token}` } }))
        .status,
    ).toBe(200);
    const renewal = await fetch(`${portalUrl()}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: after.refresh_token,
        client_id: 'cfs-portal',
      }),
    });
    expect(renewal.status).toBe(200);
  });
});

describe('as operator', () => {
  test("operator lands on Contoso's home and sees the Menu group and Administration without Tenants", async () => {
    const contoso = await tenantNamed(browser, 'operator', 'Contoso');
    const page = await signedInPage(browser, 'operator');
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === `/${contoso.tenantId}`);
    expect(await sidebarMenu(page)).toEqual(STAFF_MENU);
    await screenshot(page, 'shell-operator-home');
  });

  test('Tenants typed into the address shows operator the access notice instead of the page', async () => {
    const operator = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${homeTenantId(operator)}/tenants`);
    await page
      .getByTestId('area-access-denied')
      .getByText('You do not have access. Please contact your system administrator for access.')
      .waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
  });

  test('a 403 answer to one of the shell\'s calls shows "You do not have access to one or more requested resources" for 8 s', async () => {
    const page = await homePage('operator', { clock: true });
    // The tenant picker asks for the subscriptions whenever it opens; sent on to an endpoint the
    // operator may not read (audit events of a tenant need Tenants view), the server itself answers 403.
    await page.route('**/api/generallookup/subscriptions', (route) =>
      route.continue({ url: `${portalUrl()}/v1/auditEvents?entityType=tenant&entityId=x` }),
    );
    await pauseClock(page);
    await tenantPickerButton(page).click();
    const toast = page.getByText(FORBIDDEN_TOAST, { exact: true });
    // The page's time moves on in steps of 10 ms while the answer comes: the toast's time starts within one.
    await runClockUntil(page, () => toast.isVisible(), { stepMs: 10, maxMs: 5000 });
    // The picker closes; half a second on, the toast is alone on the page.
    await page.keyboard.press('Escape');
    await page.clock.runFor(500);
    await screenshot(page, 'shell-403-toast');
    await page.clock.runFor(FORBIDDEN_TOAST_MS - 600);
    expect(await toast.isVisible()).toBe(true);
    // Then it goes, once its exit transition has run.
    const moved = await runClockUntil(page, async () => !(await toast.isVisible()), { maxMs: 1500 });
    expect(moved).toBeGreaterThanOrEqual(100);
  });

  test('a 403 on the session’s start leads to /user/accessDenied with its notice', async () => {
    const operator = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await page.route('**/v1/session', (route) => route.fulfill({ status: 403, json: { message: 'Forbidden' } }));
    await page.goto(`/${homeTenantId(operator)}/devices`);
    await page.waitForURL((url) => url.pathname === '/user/accessDenied');
    await page.getByText(ACCESS_DENIED, { exact: true }).waitFor();
    expect(await page.getByText(FORBIDDEN_TOAST).count()).toBe(0);
    await screenshot(page, 'shell-access-denied');

    await page.unroute('**/v1/session');
    await page.goto(`/${homeTenantId(operator)}`);
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  test('a 401 on a deep path with a query goes to /user/login?requestUrl=<that path>, and signing in again returns there', async () => {
    const operator = await sessionOf(browser, 'operator');
    const deepPath = `/${homeTenantId(operator)}/devices?search=edge%20router&page=2`;
    // Its own context: the test spoils the stored sign-in.
    const page = await signedInPage(browser, 'operator', { ownContext: true });
    await page.goto(deepPath);
    await page.getByRole('heading', { name: 'Devices' }).waitFor();

    // The server refuses a token whose signature does not verify.
    await page.evaluate((prefix) => {
      const key = Object.keys(localStorage).find((candidate) => candidate.startsWith(prefix));
      if (!key) throw new Error('No stored sign-in');
      const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string };
      localStorage.setItem(key, JSON.stringify({ ...stored, access_token: `${stored.access_token ?? ''}x` }));
    }, USER_STORE_PREFIX);
    // Opening the tenant picker fetches the subscriptions again.
    await tenantPickerButton(page).click();

    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(new URL(page.url()).searchParams.get('requestUrl')).toBe(deepPath);

    await page.getByRole('button', { name: 'Login' }).click();
    await completeSignIn(page, 'operator', (url) => `${url.pathname}${url.search}` === deepPath);
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
  });
});

describe('as operator2', () => {
  test("operator2 lands on Fabrikam's home, with Fabrikam's tenant id in the address, and sees the Menu group and Administration without Tenants", async () => {
    const fabrikam = await tenantNamed(browser, 'operator2', 'Fabrikam');
    const page = await signedInPage(browser, 'operator2');
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === `/${fabrikam.tenantId}`);
    expect(await sidebarMenu(page)).toEqual(STAFF_MENU);
    await page.getByRole('button', { name: /^Tenant and subscription: Fabrikam > / }).waitFor();
  });
});

describe('as enduser', () => {
  async function expectResolutionCenter(page: Page): Promise<void> {
    await page.waitForURL((url) => url.pathname === '/resolutioncenter');
    await page.locator('header').getByText('Resolution Center', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Profile' }).waitFor();
    expect(await mainMenu(page).count()).toBe(0);
    expect(await page.locator('.MuiDrawer-root').count()).toBe(0);
    expect(await tenantPickerButton(page).count()).toBe(0);
  }

  test('enduser opening / lands on /resolutioncenter: standalone layout, header "Resolution Center", no sidebar', async () => {
    const { environmentName } = await api<EnvironmentInfo>(
      await sessionOf(browser, 'enduser'),
      '/api/generalLookup/environment',
    );
    const page = await signedInPage(browser, 'enduser');
    await page.goto('/');
    await expectResolutionCenter(page);
    await page.getByRole('button', { name: 'Create', exact: true }).waitFor();
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe(`Resolution Center - ${environmentName}`);
    await screenshot(page, 'shell-resolution-center');
  });

  test('enduser opening /{tenantId} is sent to /resolutioncenter', async () => {
    const enduser = await sessionOf(browser, 'enduser');
    const page = await signedInPage(browser, 'enduser');
    await page.goto(`/${homeTenantId(enduser)}`);
    await expectResolutionCenter(page);
  });

  test('a staff page typed into the address sends enduser to the Resolution Center, with no tenant picker', async () => {
    const enduser = await sessionOf(browser, 'enduser');
    const page = await signedInPage(browser, 'enduser');
    await page.goto(`/${homeTenantId(enduser)}/devices`);
    await page.waitForURL((url) => url.pathname === '/resolutioncenter');
    await page.getByRole('button', { name: 'Profile' }).waitFor();
    expect(await tenantPickerButton(page).count()).toBe(0);
  });

  test('removing the stored sign-in in another tab sends this tab to the login page', async () => {
    // Its own context: the test removes the stored sign-in.
    const page = await signedInPage(browser, 'enduser', { ownContext: true });
    await page.goto('/resolutioncenter');
    await page.getByRole('button', { name: 'Profile' }).waitFor();
    const otherTab = await page.context().newPage();
    // Any page of the portal's origin shares its local storage; a static file runs none of the app.
    await otherTab.goto('/favicon.svg');
    expect(await storedSignInKeys(otherTab)).toHaveLength(1);
    await otherTab.evaluate(() => {
      for (const key of Object.keys(localStorage)) if (key.startsWith('cfs-portal.user:')) localStorage.removeItem(key);
    });
    await page.waitForURL((url) => url.pathname === '/user/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
  });
});

describe('the web app files', () => {
  test('are sent as the brotli copies made at build time, the hashed ones cached for good and the page revalidated', async () => {
    const headers = { 'accept-encoding': 'br, gzip' };
    const page = await fetch(`${portalUrl()}/`, { headers });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    // The app's entry (the early script ahead of it is smaller than what is worth compressing).
    const script = /<script[^>]+src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(new URL(script ?? '', portalUrl()), { headers });
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A copy read from disk has its length; one compressed while sending would be chunked.
    const sent = asset.headers.get('content-length');
    expect(sent).not.toBeNull();
    expect(Number(sent)).toBeLessThan((await asset.text()).length / 2);
  });
});
