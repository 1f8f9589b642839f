import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { AREA_PAGES } from '../src/app/areas';
import {
  browser,
  choose,
  createWorkUnit,
  drawer,
  homeTenantId,
  newContext,
  screenshot,
  sessionOf,
  settled,
  signedInPage,
  uniqueName,
  type PageOptions,
  type UserName,
} from './support';

/**
 * Every screen of the portal checked with axe-core, in light and in dark mode: the pages of the
 * app's own route registry (so a new area is checked as soon as it is routed), each with an
 * item's side panel open, the Resolution Center of an end user, the intake wizard, the login
 * page and a toast. A screen passes with no serious or critical violation, and none of the
 * moderate ones the operators' audit named (landmarks, heading levels, a page's h1).
 */

type Theme = 'light' | 'dark';
const THEMES: readonly Theme[] = ['light', 'dark'];

/** The theme switch keeps its choice in the browser (theme-mode.tsx): a dark context starts with it set. */
const THEME_STORE_KEY = 'cfs-portal.themeMode';

/** Moderate rules that fail the check too: the audit named them, and they stay fixed. */
const ALSO_FAILING = new Set([
  'region',
  'heading-order',
  'page-has-heading-one',
  'landmark-one-main',
  'landmark-unique',
]);

const axeSource = fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  screen: string;
  rule: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe's violations on the page as it is now that fail the check, each with the screen's name,
 * the rule and the elements, so that a failure says what to fix and where.
 */
async function violations(page: Page, screen: string, options: { skip?: string[] } = {}): Promise<Finding[]> {
  // Evaluated through the debugging protocol, which the portal's Content-Security-Policy does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const runOptions: RunOptions = {
    resultTypes: ['violations'],
    // An experimental rule, off by default: a control named other than what it shows (WCAG 2.5.3).
    rules: {
      'label-content-name-mismatch': { enabled: true },
      ...Object.fromEntries((options.skip ?? []).map((rule) => [rule, { enabled: false }])),
    },
  };
  const found = await page.evaluate(async (runWith) => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> };
    };
    const results = await axe.run(document, runWith);
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.html.slice(0, 160)}`),
    }));
  }, runOptions);
  return found
    .filter(
      (finding) => finding.impact === 'serious' || finding.impact === 'critical' || ALSO_FAILING.has(finding.rule),
    )
    .map((finding) => ({ screen, ...finding }));
}

/** Waits until the page has drawn what it loads: its content, no request under way, no grid loading. */
async function loaded(page: Page): Promise<void> {
  await page.locator('main').waitFor();
  await page.waitForLoadState('networkidle');
  await page
    .locator('.MuiDataGrid-overlay:has([role=progressbar]), .MuiCircularProgress-root')
    .first()
    .waitFor({ state: 'hidden' });
}

/**
 * Opens the side panel of the first item of the page's grid (its title link), if the grid has a
 * row and its items open in a panel; the panel or nothing. A title link opens the item in place: a
 * button, or a link to this page with the item in its query. A link to another page (the Version
 * Report's tenant) is not one.
 */
async function openFirstItem(page: Page): Promise<boolean> {
  const link = page
    .locator('.MuiDataGrid-row')
    .first()
    .locator('a.MuiLink-root[href*="?"], button.MuiLink-root')
    .first();
  if ((await link.count()) === 0) return false;
  await link.click();
  const panel = drawer(page);
  await settled(panel);
  // Not the network's rest: a panel may poll, or show an email whose images never arrive.
  await panel.locator('.MuiCircularProgress-root, .MuiSkeleton-root').first().waitFor({ state: 'hidden' });
  return true;
}

beforeAll(async () => {
  // A Sev2 work unit heads the Work Units grid: white on orange was the audit's failing cell.
  await createWorkUnit(await sessionOf(browser, 'admin'), { severityId: 2 });
}, 60_000);

/** A page of the user's in the theme; the pages of one user and theme share a browser context. */
async function themedPage(user: UserName, theme: Theme, options: PageOptions = {}): Promise<Page> {
  const page = await signedInPage(browser, user, { colorScheme: theme, ...options });
  await page.addInitScript(([key, mode]) => window.localStorage.setItem(key, mode), [THEME_STORE_KEY, theme] as const);
  return page;
}

/** Every page the portal routes under a tenant without a parameter (packets/:id needs a packet): the menu's pages and more. */
const PAGES = [{ path: '', header: 'Home' }, ...AREA_PAGES.filter((route) => !route.path.includes(':'))];

describe.each(THEMES)('in %s mode', (theme) => {
  test.each(PAGES)(
    "an administrator's $header page, and its first item's side panel, have no serious or critical axe violation",
    async ({ path, header }) => {
      const admin = await sessionOf(browser, 'admin');
      const page = await themedPage('admin', theme);
      await page.goto(`/${homeTenantId(admin)}/${path}`);
      await loaded(page);
      const found = await violations(page, `${header} (${theme})`);
      if (await openFirstItem(page)) {
        // A modal panel hides the page behind it from assistive technology, its h1 included.
        found.push(...(await violations(page, `${header}: side panel (${theme})`, { skip: ['page-has-heading-one'] })));
      }
      expect(found).toEqual([]);
    },
  );

  test("an end user's Resolution Center and its Create Request panel have no serious or critical axe violation", async () => {
    const page = await themedPage('enduser', theme);
    await page.goto('/resolutioncenter');
    await loaded(page);
    const found = await violations(page, `Resolution Center (${theme})`);
    // A search that finds nothing: the grid's overlay with its button (also the empty list's and a failed call's).
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill('no request is called this');
    await search.press('Enter');
    await page.getByRole('button', { name: SHELL_MESSAGES.clearSearchAndFilters }).waitFor();
    found.push(...(await violations(page, `Resolution Center: nothing matches (${theme})`)));
    await page.getByRole('button', { name: SHELL_MESSAGES.clearSearchAndFilters }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await settled(drawer(page));
    found.push(
      ...(await violations(page, `Resolution Center: Create Request (${theme})`, { skip: ['page-has-heading-one'] })),
    );
    expect(found).toEqual([]);
  });

  test('the intake wizard, from its tenant selection to its first step, has no serious or critical axe violation', async () => {
    const admin = await sessionOf(browser, 'admin');
    const page = await themedPage('admin', theme);
    await page.goto(`/${homeTenantId(admin)}/workunitsv2`);
    await loaded(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Intake' }).click();
    const selection = drawer(page).filter({ has: page.getByRole('heading', { name: 'Select Tenant' }) });
    await settled(selection);
    const found = await violations(page, `Intake: Select Tenant (${theme})`, { skip: ['page-has-heading-one'] });
    await choose(selection, page, 'Tenant', 'Contoso');
    const wizard = drawer(page).filter({ has: page.getByRole('heading', { name: 'Intake: Contoso' }) });
    await wizard.locator('.MuiStepper-root').waitFor();
    await settled(wizard);
    found.push(...(await violations(page, `Intake wizard (${theme})`, { skip: ['page-has-heading-one'] })));
    await screenshot(page, `a11y-intake-wizard-${theme}`);
    expect(found).toEqual([]);
  });

  test('the login page has no serious or critical axe violation', async () => {
    const context = await newContext(browser, { colorScheme: theme });
    try {
      const page = await context.newPage();
      await page.addInitScript(([key, mode]) => window.localStorage.setItem(key, mode), [
        THEME_STORE_KEY,
        theme,
      ] as const);
      await page.goto('/user/login');
      await page.getByRole('button', { name: 'Login' }).waitFor();
      expect(await violations(page, `Login (${theme})`)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a success toast has no serious or critical axe violation', async () => {
    const admin = await sessionOf(browser, 'admin');
    const page = await themedPage('admin', theme);
    await page.goto(`/${homeTenantId(admin)}/workunitsv2`);
    await loaded(page);
    await page.getByRole('button', { name: 'Save View' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save View' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(uniqueName('a11y view'));
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    const toast = page.locator('.notistack-MuiContent-success');
    await settled(toast);
    const found = await violations(page, `Success toast (${theme})`);
    await screenshot(page, `a11y-success-toast-${theme}`);
    expect(found).toEqual([]);
  });
});

describe('keyboard', () => {
  /** Where the keyboard's focus is: the element's tag, id and text, and the landmark holding it. */
  function focused(page: Page) {
    return page.evaluate(() => {
      const element = document.activeElement;
      return { text: element?.textContent?.trim() ?? '', inMain: element?.closest('main') !== null };
    });
  }

  test.each<[string, UserName, (tenantId: string) => string]>([
    ['the portal layout', 'admin', (tenantId) => `/${tenantId}/devices`],
    ["the Resolution Center's layout", 'enduser', () => '/resolutioncenter'],
  ])(
    'the first Tab in %s reaches "Skip to main content", which takes the focus to the page\'s content',
    async (_layout, user, pathOf) => {
      const session = await sessionOf(browser, user);
      const page = await signedInPage(browser, user);
      await page.goto(pathOf(session.me.tenantId ?? ''));
      await loaded(page);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toEqual({ text: 'Skip to main content', inMain: false });
      const skipLink = page.getByRole('link', { name: 'Skip to main content' });
      expect(await skipLink.isVisible()).toBe(true);
      await screenshot(page, `a11y-skip-link-${user}`);
      await page.keyboard.press('Enter');
      expect((await focused(page)).inMain).toBe(true);
      // The next Tab goes on from the content, past the header and the menu.
      await page.keyboard.press('Tab');
      expect((await focused(page)).inMain).toBe(true);
    },
  );
});

/** Screens the fixes changed, at desktop and phone widths, for a person to look at. */
describe('screenshots of the changed screens', () => {
  test.each([1440, 375])(
    'at %i px: the Work Units grid with its severity cells, and a work unit panel',
    async (width) => {
      const admin = await sessionOf(browser, 'admin');
      for (const theme of THEMES) {
        const page = await themedPage('admin', theme, { width, height: 900 });
        await page.goto(`/${homeTenantId(admin)}/workunitsv2`);
        await loaded(page);
        await screenshot(page, `a11y-work-units-${theme}-${width}`);
        if (await openFirstItem(page)) await screenshot(page, `a11y-work-unit-panel-${theme}-${width}`);
        await page.goto(`/${homeTenantId(admin)}/workunitcommunications`);
        await loaded(page);
        await screenshot(page, `a11y-communications-${theme}-${width}`);
        await page.goto(`/${homeTenantId(admin)}`);
        await loaded(page);
        await page.keyboard.press('Tab');
        await screenshot(page, `a11y-home-skip-link-${theme}-${width}`);
      }
    },
  );
});
