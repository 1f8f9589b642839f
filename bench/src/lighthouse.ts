import fs from 'node:fs/promises';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { freePort } from './bench-portal.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, tempDir } from './front-end.js';

export type FormFactor = 'mobile' | 'desktop';

export interface LighthouseScore {
  /** The performance category's score, 0 to 100. */
  performance: number;
  /** Each metric the score weighs: its value (ms, under Lighthouse's simulated throttling; none for the layout shift) and its own score, 0 to 100. */
  metrics: { id: ScoredMetric; value: number; score: number }[];
  /** The audits that would bring the LCP forward, largest saving first: where the time goes. */
  lcpSavings: { title: string; ms: number }[];
  /** The element the LCP is, and its phases (time to first byte, load delay, load time, render delay). */
  lcpElement: string;
  lcpPhases: { phase: string; ms: number }[];
}

/** The metrics Lighthouse's performance score weighs. */
const SCORED_METRICS = [
  'first-contentful-paint',
  'speed-index',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
] as const;
type ScoredMetric = (typeof SCORED_METRICS)[number];

/** One metric's value in a run (NaN when Lighthouse gave none). */
export function metricValue(score: LighthouseScore, id: ScoredMetric): number {
  return score.metrics.find((metric) => metric.id === id)?.value ?? Number.NaN;
}

/** The rows of the LCP element audit's tables (`largest-contentful-paint-element`): its node and its phases. */
function lcpDetails(details: unknown): Pick<LighthouseScore, 'lcpElement' | 'lcpPhases'> {
  const rows = (table: unknown): Record<string, unknown>[] => {
    const items = typeof table === 'object' && table !== null ? (table as { items?: unknown }).items : undefined;
    return Array.isArray(items)
      ? items.filter((item): item is Record<string, unknown> => typeof item === 'object')
      : [];
  };
  const [elementTable, phaseTable] = rows(details);
  const node = rows(elementTable)[0]?.node as { nodeLabel?: string; snippet?: string } | undefined;
  return {
    lcpElement: `${node?.nodeLabel ?? ''} ${node?.snippet ?? ''}`.trim(),
    lcpPhases: rows(phaseTable).map((row) => ({ phase: String(row.phase), ms: Number(row.timing) })),
  };
}

/** What a page's origin keeps in localStorage before it is opened (a stored sign-in). */
export type StoredItems = readonly { name: string; value: string }[];

/**
 * Lighthouse's performance category for `url`, as its own command line measures it (mobile: a
 * mid-range phone on a slow 4G link; desktop: its desktop preset; both with simulated throttling),
 * in a browser profile of its own, so the cache is empty. `stored` is written to the origin's
 * localStorage first, on the origin's `blankPath`, and Lighthouse is told not to clear it: the
 * signed-in page is measured as a returning user opens it.
 */
export async function lighthouseScore(
  url: string,
  formFactor: FormFactor,
  stored: StoredItems = [],
  blankPath = '/',
): Promise<LighthouseScore> {
  try {
    return await lighthouseRun(url, formFactor, stored, blankPath);
  } catch (error) {
    // Lighthouse now and then fails a run (a metric it could not compute from the trace): once is
    // said and run again, twice stops the bench.
    if (!(error instanceof NoScore)) throw error;
    console.log(`    ${error.message}; run again`);
    return lighthouseRun(url, formFactor, stored, blankPath);
  }
}

/** A run Lighthouse could not score. */
class NoScore extends Error {}

async function lighthouseRun(
  url: string,
  formFactor: FormFactor,
  stored: StoredItems,
  blankPath: string,
): Promise<LighthouseScore> {
  const profile = await tempDir('cfs-bench-lighthouse-');
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    if (stored.length > 0) {
      const page = await context.newPage();
      await page.goto(new URL(blankPath, url).href);
      await page.evaluate(
        `for (const { name, value } of ${JSON.stringify(stored)}) window.localStorage.setItem(name, value);`,
      );
      await page.close();
    }
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new NoScore(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new NoScore(`Lighthouse could not measure ${url}: ${lhr.runtimeError.message}`);
    const score = lhr.categories.performance?.score;
    if (typeof score !== 'number') {
      const failed = Object.values(lhr.audits)
        .filter((audit) => audit.scoreDisplayMode === 'error')
        .map((audit) => `${audit.id}: ${audit.errorMessage ?? 'failed'}`);
      throw new NoScore(`Lighthouse gave no performance score for ${url} (${failed.join('; ')})`);
    }
    // A page that sent the browser elsewhere (a sign-in that did not hold) is not the page asked for.
    const shown = new URL(lhr.finalDisplayedUrl).pathname;
    if (shown !== new URL(url).pathname) throw new Error(`Lighthouse was shown ${shown}, not ${url}`);
    const lcpSavings = Object.values(lhr.audits)
      .map((audit) => ({ title: audit.title, ms: audit.metricSavings?.LCP ?? 0 }))
      .filter((saving) => saving.ms > 0)
      .sort((a, b) => b.ms - a.ms);
    return {
      performance: score * 100,
      metrics: SCORED_METRICS.map((id) => ({
        id,
        value: lhr.audits[id]?.numericValue ?? Number.NaN,
        score: (lhr.audits[id]?.score ?? Number.NaN) * 100,
      })),
      lcpSavings,
      ...lcpDetails(lhr.audits['largest-contentful-paint-element']?.details),
    };
  } finally {
    await context.close();
    await fs.rm(profile, { recursive: true, force: true });
  }
}
