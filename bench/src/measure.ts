/** Timing helpers: warm up, then take the median (p50) and p95 of many runs. */
export interface Timing {
  p50: number;
  p95: number;
  runs: number;
}

/** How long one local call takes, in milliseconds. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** `sample` runs one call and says how long it took (`timed(…)`, or an HTTP call's own timing). */
export async function time(runs: number, sample: () => Promise<number>, warmup = 20): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await sample();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await sample());
  return summary(samples);
}

/**
 * Two calls taken in turns (a then b, then b then a, …) after `warmup` rounds of each, so that
 * drift of the machine's load falls on both alike.
 */
export async function inTurns<A, B>(
  runs: number,
  a: () => Promise<A>,
  b: () => Promise<B>,
  warmup = 0,
): Promise<{ as: A[]; bs: B[] }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const as: A[] = [];
  const bs: B[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return { as, bs };
}

/** Two calls timed in turns (inTurns); `difference` is taken per pair, then its median and p95. */
export async function paired(
  runs: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
  warmup = 20,
): Promise<{ a: Timing; b: Timing; difference: Timing }> {
  const { as, bs } = await inTurns(runs, a, b, warmup);
  return { a: summary(as), b: summary(bs), difference: summary(as.map((value, index) => value - bs[index]!)) };
}

function summary(samples: number[]): Timing {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), runs: sorted.length };
}

/**
 * How long a list request's statements take through the driver, run as the list route runs them:
 * the page, then its count (the pages measured are full, so the route asks for the count).
 */
export function listStatementsTimed<D>(
  db: D,
  statements: { rows: { execute(db: D): Promise<unknown> }; count: { execute(db: D): Promise<unknown> } },
  withCount = true,
): Promise<number> {
  return timed(async () => {
    await statements.rows.execute(db);
    if (withCount) await statements.count.execute(db);
  });
}
