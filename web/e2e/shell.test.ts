import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EULA_PARAGRAPHS } from '../src/app/eula';
import { launchBrowser, newContext, portalUrl, screenshot, serverCall, signIn } from './support';

/**
 * The portal shell in the browser (spec 000): sign-in, the menu per permission set, tenant
 * context, theme, profile menu, License dialog, 404, and the 401/403 handling. Each user
 * signs in once; the tests of a describe share that user's page, in order.
 */

const MENU_ITEMS = ['Work Units', 'Work Unit Communications', 'Devices', 'Blocks', 'Rules', 'Compliance'];
const ADMINISTRATION_ITEMS = [
  'Tenants',
  'Locations',
  'Package Catalog',
  'Work Unit Protocols',
  'Action Catalog',
  'Pending Devices',
  'Tokens',
  'Work Unit Settings',
  'Version Report',
];
const STAFF_MENU = [
  { group: 'Menu', items: MENU_ITEMS },
  { group: 'Administration', items: ADMINISTRATION_ITEMS.filter((item) => item !== 'Tenants') },
];

const FORBIDDEN_TOAST = 'You do not have access to one or more requested resources';
const ACCESS_DENIED = 'You do not have access. Please contact your system administrator for access.';
const NOT_AVAILABLE = 'This area is not available yet.';
const USER_STORE_PREFIX = 'cfs-portal.user:';
const TENANT_PATH = /^\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

interface CurrentUser {
  name: string;
  userName: string;
  tenantId: string | null;
  subscriptionId: string | null;
}
interface TenantLookup {
  tenantId: string;
  name: string;
}
interface SubscriptionLookup {
  subscriptionId: string;
  name: string;
  tenantId: string;
}
interface EnvironmentInfo {
  environmentName: string;
  environmentColor: string;
  licenseExpiration: string | null;
}

async function tenantNamed(page: Page, name: string): Promise<TenantLookup> {
  const tenant = (await serverCall<TenantLookup[]>(page, '/api/generallookup/tenants')).find((candidate) => candidate.name === name);
  if (!tenant) throw new Error(`No tenant ${name} for this user`);
  return tenant;
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

/** Waits until the element and what it holds stop moving (MUI's grow, fade and collapse transitions), e.g. before a screenshot. */
async function settled(locator: Locator): Promise<void> {
  await locator.waitFor();
  await expect
    .poll(() => locator.evaluate((element) => element.getAnimations({ subtree: true }).filter((animation) => animation.playState === 'running').length), {
      timeout: 5000,
    })
    .toBe(0);
}

async function storedSignInKeys(page: Page): Promise<string[]> {
  return page.evaluate((prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)), USER_STORE_PREFIX);
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

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('as admin', () => {
  let context: BrowserContext;
  let page: Page;
  let contoso: TenantLookup;
  let fabrikam: TenantLookup;
  let admin: CurrentUser;

  beforeAll(async () => {
    context = await newContext(browser);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
  });

  test('admin signs in from the login page through the provider form and lands on the home of their tenant', async () => {
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

    admin = await serverCall<CurrentUser>(page, '/v1/currentUser');
    contoso = await tenantNamed(page, 'Contoso');
    fabrikam = await tenantNamed(page, 'Fabrikam');
    expect(admin.tenantId).toBe(contoso.tenantId);
    expect(new URL(page.url()).pathname).toBe(`/${contoso.tenantId}`);
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  test('admin sees the Menu and Administration groups with every item', async () => {
    expect(await sidebarMenu(page)).toEqual([
      { group: 'Menu', items: MENU_ITEMS },
      { group: 'Administration', items: ADMINISTRATION_ITEMS },
    ]);
    await screenshot(page, 'shell-admin-home');
  });

  test('the sidebar is 260 px wide at desktop width and its logo link goes to /{tenantId}', async () => {
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
    const header = await page.locator('header').boundingBox();
    const spacer = await page.locator('main > .MuiToolbar-root').boundingBox();
    expect(header?.height).toBeGreaterThan(0);
    expect(header?.height).toBe(spacer?.height);
  });

  test('the menu item of the current path is highlighted, and only that one', async () => {
    await mainMenu(page).getByRole('link', { name: 'Devices', exact: true }).click();
    await page.waitForURL(`**/${contoso.tenantId}/devices`);
    const current = mainMenu(page).locator('a[aria-current="page"]');
    await expect.poll(() => current.allTextContents(), { timeout: 5000 }).toEqual(['Devices']);
    expect(await current.getAttribute('class')).toContain('Mui-selected');

    await mainMenu(page).getByRole('link', { name: 'Blocks' }).click();
    await page.waitForURL(`**/${contoso.tenantId}/blocks`);
    await expect.poll(() => current.allTextContents(), { timeout: 5000 }).toEqual(['Blocks']);
    expect(await mainMenu(page).getByRole('link', { name: 'Devices', exact: true }).getAttribute('class')).not.toContain('Mui-selected');
  });

  test('a placeholder area (Devices) shows its header and "This area is not available yet." and titles the document "Devices - {environment name}"', async () => {
    const environment = await serverCall<EnvironmentInfo>(page, '/api/generalLookup/environment');
    await mainMenu(page).getByRole('link', { name: 'Devices', exact: true }).click();
    await page.waitForURL(`**/${contoso.tenantId}/devices`);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await page.getByText(NOT_AVAILABLE).waitFor();
    // "CFS Portal" unless the server is configured with another environment name.
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe(`Devices - ${environment.environmentName}`);
  });

  test('the theme starts light; the header switch turns the app dark and back to light', async () => {
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
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await page.getByRole('button', { name: 'Switch to dark mode' }).waitFor();
  });

  test('the License dialog shows the expiration date and the whole days left from the server licenseExpiration, and reveals the EULA; the footer shows the version', async () => {
    const { version } = await serverCall<{ version: string }>(page, '/api/generalLookup/version');
    await page.getByText(`Version ${version}`, { exact: true }).waitFor();

    const { licenseExpiration } = await serverCall<EnvironmentInfo>(page, '/api/generalLookup/environment');
    if (!licenseExpiration) throw new Error('The server reports no licence expiration');
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
    await tenantPickerButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Tenant > Subscription' });
    await dialog.getByRole('combobox', { name: /^Tenant/ }).click();
    await page.getByRole('option', { name: 'Fabrikam' }).click();
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
    // A user without a stored tenant context: the profile call answers no tenant or subscription.
    const blank = await context.newPage();
    await blank.route('**/v1/currentUser', async (route) => {
      const response = await route.fetch();
      const user = (await response.json()) as CurrentUser;
      await route.fulfill({ response, json: { ...user, tenantId: null, subscriptionId: null } });
    });
    await blank.goto(`/${contoso.tenantId}/devices`);
    await tenantPickerButton(blank).click();
    const dialog = blank.getByRole('dialog', { name: 'Tenant > Subscription' });
    const save = dialog.getByRole('button', { name: 'Save' });
    const tenant = dialog.getByRole('combobox', { name: /^Tenant/ });
    // The fields are disabled until the tenant and subscription lookups answer.
    await expect.poll(() => tenant.getAttribute('aria-disabled'), { timeout: 5000 }).toBeNull();
    expect(await save.isDisabled()).toBe(true);

    await tenant.focus();
    await blank.keyboard.press('Tab');
    await blank.keyboard.press('Tab');
    await dialog.getByText('Please choose a tenant.').waitFor();
    await dialog.getByText('Please choose a subscription.').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await blank.close();
  });

  test('the tenant picker: choosing Fabrikam and a Fabrikam subscription and saving reloads the same address with the tenant id replaced', async () => {
    const subscriptions = await serverCall<SubscriptionLookup[]>(page, '/api/generallookup/subscriptions');
    const fabrikamSubscriptions = subscriptions.filter((subscription) => subscription.tenantId === fabrikam.tenantId).map((subscription) => subscription.name);
    const deepPath = `/${contoso.tenantId}/devices?search=router%201`;
    await page.goto(deepPath);
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    const timeOrigin = await page.evaluate(() => performance.timeOrigin);

    try {
      await tenantPickerButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Tenant > Subscription' });
      await dialog.getByRole('combobox', { name: /^Tenant/ }).click();
      await page.getByRole('option', { name: 'Fabrikam' }).click();
      await dialog.getByRole('combobox', { name: /^Subscription/ }).click();
      // Only the chosen tenant's subscriptions are offered (spec 000 §5).
      expect((await page.getByRole('option').allTextContents()).sort()).toEqual([...fabrikamSubscriptions].sort());
      await settled(page.locator('.MuiMenu-paper'));
      await screenshot(page, 'shell-tenant-picker-open');
      await page.getByRole('option', { name: 'Fabrikam Lab' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();

      await page.waitForURL((url) => `${url.pathname}${url.search}` === `/${fabrikam.tenantId}/devices?search=router%201`);
      await page.getByRole('button', { name: 'Tenant and subscription: Fabrikam > Fabrikam Lab' }).waitFor();
      // A full page load, not a client-side navigation.
      expect(await page.evaluate(() => performance.timeOrigin)).not.toBe(timeOrigin);
      expect(await serverCall<CurrentUser>(page, '/v1/currentUser')).toMatchObject({ tenantId: fabrikam.tenantId });
    } finally {
      // Other tests of the run expect admin in Contoso Production.
      await serverCall(page, `/v1/tenantSubscriptionContext/${contoso.tenantId}`, {
        method: 'POST',
        body: { tenant: contoso.tenantId, subscriptionId: admin.subscriptionId },
      });
    }
  });

  test('the profile menu shows an avatar with "AA" for Ada Admin and a 290 px popup with the name', async () => {
    await page.goto(`/${contoso.tenantId}`);
    const profile = page.getByRole('button', { name: 'Profile' });
    // The server's photo is a picture of the initials; without a photo the avatar shows them as text.
    const photo = profile.getByRole('img', { name: 'Ada Admin' });
    const src = (await photo.getAttribute('src')) ?? '';
    expect(src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(src.split(',')[1] ?? '', 'base64').toString()).toContain('>AA</text>');

    await page.route('**/api/auth/currentUserPhoto', (route) => route.fulfill({ status: 404, json: { message: 'No photo' } }));
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

  test('Log out removes the stored sign-in and ends on /user/login; Login then asks for credentials again', async () => {
    expect(await storedSignInKeys(page)).toHaveLength(1);
    await page.locator('.MuiPopover-paper').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(await storedSignInKeys(page)).toEqual([]);

    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('User name').waitFor();
    await page.getByLabel('Password').waitFor();
  });
});

describe('as operator', () => {
  let context: BrowserContext;
  let page: Page;
  let operator: CurrentUser;

  beforeAll(async () => {
    context = await newContext(browser);
    page = await context.newPage();
    await signIn(page, 'operator');
    operator = await serverCall<CurrentUser>(page, '/v1/currentUser');
  });

  afterAll(async () => {
    await context?.close();
  });

  test('operator lands on Contoso\'s home and sees the Menu group and Administration without Tenants', async () => {
    expect(operator.tenantId).toBe((await tenantNamed(page, 'Contoso')).tenantId);
    await page.waitForURL((url) => url.pathname === `/${operator.tenantId}`);
    expect(await sidebarMenu(page)).toEqual(STAFF_MENU);
    await screenshot(page, 'shell-operator-home');
  });

  test('Tenants typed into the address shows operator the access notice instead of the page', async () => {
    await page.goto(`/${operator.tenantId}/tenants`);
    await page.getByTestId('area-access-denied').getByText('You do not have access. Please contact your system administrator for access.').waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
    await page.goto(`/${operator.tenantId}`);
  });

  test('a 403 answer to one of the shell\'s calls shows "You do not have access to one or more requested resources" for 8 s', async () => {
    // The sidebar's version call is sent on to an endpoint the operator may not read
    // (audit events of a tenant need Tenants view), so the server itself answers 403.
    await page.route('**/api/generalLookup/version', (route) =>
      route.continue({ url: `${portalUrl()}/v1/auditEvents?entityType=tenant&entityId=x` }),
    );
    const forbidden = page.waitForResponse((response) => response.status() === 403);
    await page.reload();
    await forbidden;
    await page.unroute('**/api/generalLookup/version');

    const toast = page.getByText(FORBIDDEN_TOAST, { exact: true });
    await toast.waitFor({ state: 'visible' });
    const shownAt = Date.now();
    await settled(page.locator('.notistack-SnackbarContainer'));
    await screenshot(page, 'shell-403-toast');
    await page.waitForTimeout(6500 - (Date.now() - shownAt));
    expect(await toast.isVisible()).toBe(true);
    await toast.waitFor({ state: 'hidden', timeout: Math.max(0, 9500 - (Date.now() - shownAt)) });
  });

  test('a 403 on /v1/permissions at start-up leads to /user/accessDenied with its notice', async () => {
    await page.route('**/v1/permissions', (route) => route.fulfill({ status: 403, json: { message: 'Forbidden' } }));
    await page.goto(`/${operator.tenantId}/devices`);
    await page.waitForURL((url) => url.pathname === '/user/accessDenied');
    await page.getByText(ACCESS_DENIED, { exact: true }).waitFor();
    expect(await page.getByText(FORBIDDEN_TOAST).count()).toBe(0);
    await screenshot(page, 'shell-access-denied');

    await page.unroute('**/v1/permissions');
    await page.goto(`/${operator.tenantId}`);
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  test('a 401 on a deep path with a query goes to /user/login?requestUrl=<that path>, and signing in again returns there', async () => {
    const deepPath = `/${operator.tenantId}/devices?search=edge%20router&page=2`;
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
  test('operator2 lands on Fabrikam\'s home, with Fabrikam\'s tenant id in the address, and sees the Menu group and Administration without Tenants', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await signIn(page, 'operator2');
      const fabrikam = await tenantNamed(page, 'Fabrikam');
      await page.waitForURL((url) => url.pathname === `/${fabrikam.tenantId}`);
      expect(await sidebarMenu(page)).toEqual(STAFF_MENU);
      await page.getByRole('button', { name: /^Tenant and subscription: Fabrikam > / }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('as enduser', () => {
  let context: BrowserContext;
  let page: Page;
  let enduser: CurrentUser;

  beforeAll(async () => {
    context = await newContext(browser);
    page = await context.newPage();
    await signIn(page, 'enduser');
    enduser = await serverCall<CurrentUser>(page, '/v1/currentUser');
  });

  afterAll(async () => {
    await context?.close();
  });

  async function expectResolutionCenter(): Promise<void> {
    await page.waitForURL((url) => url.pathname === '/resolutioncenter');
    await page.locator('header').getByText('Resolution Center', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Profile' }).waitFor();
    expect(await mainMenu(page).count()).toBe(0);
    expect(await page.locator('.MuiDrawer-root').count()).toBe(0);
    expect(await tenantPickerButton(page).count()).toBe(0);
  }

  test('enduser signing in at / lands on /resolutioncenter: standalone layout, header "Resolution Center", no sidebar', async () => {
    await expectResolutionCenter();
    await page.getByText(NOT_AVAILABLE).waitFor();
    const { environmentName } = await serverCall<EnvironmentInfo>(page, '/api/generalLookup/environment');
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe(`Resolution Center - ${environmentName}`);
    await screenshot(page, 'shell-resolution-center');
  });

  test('enduser opening /{tenantId} is sent to /resolutioncenter', async () => {
    expect(enduser.tenantId).not.toBeNull();
    await page.goto(`/${enduser.tenantId}`);
    await expectResolutionCenter();
  });

  test('a staff page typed into the address sends enduser to the Resolution Center, with no tenant picker', async () => {
    await page.goto(`/${enduser.tenantId}/devices`);
    await page.waitForURL((url) => url.pathname === '/resolutioncenter');
    await page.getByRole('button', { name: 'Profile' }).waitFor();
    expect(await tenantPickerButton(page).count()).toBe(0);
  });

  test('removing the stored sign-in in another tab sends this tab to the login page', async () => {
    const otherTab = await context.newPage();
    // Any page of the portal's origin shares its local storage; a static file runs none of the app.
    await otherTab.goto('/favicon.svg');
    expect(await storedSignInKeys(otherTab)).toHaveLength(1);
    await otherTab.evaluate(() => {
      for (const key of Object.keys(localStorage)) if (key.startsWith('cfs-portal.user:')) localStorage.removeItem(key);
    });
    await page.waitForURL((url) => url.pathname === '/user/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await otherTab.close();
  });
});
