/** Timing helpers: warm up, then take the median (p50) and p95 of many runs. */
export interface Timing {
  p50: number;
  p95: number;
  runs: number;
}

export async function time(runs: number, work: () => Promise<unknown>, warmup = 20): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), runs };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
