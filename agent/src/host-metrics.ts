import si from 'systeminformation';

/**
 * The machine's CPU and memory use. systeminformation measures CPU load between two calls, so the
 * first reading (since boot, which it reports as 100% on some systems) is taken once and thrown away.
 */
const MIN_WINDOW_MS = 1000;

export class HostMetrics {
  private primed: Promise<number> | undefined;

  private prime(): Promise<number> {
    this.primed ??= si.currentLoad().then(() => Date.now());
    return this.primed;
  }

  async sample(): Promise<{ cpuPercent: number; memoryPercent: number }> {
    // The first real reading covers at least a second: over a few milliseconds the load is noise.
    const primedAt = await this.prime();
    const wait = primedAt + MIN_WINDOW_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const [load, memory] = await Promise.all([si.currentLoad(), si.mem()]);
    // `active` leaves out caches and buffers the system gives back on demand: what a person calls "used".
    const memoryPercent = memory.total > 0 ? (memory.active / memory.total) * 100 : 0;
    return { cpuPercent: round(load.currentLoad), memoryPercent: round(memoryPercent) };
  }

  async disk(): Promise<number> {
    const sizes = await si.fsSize();
    const root = sizes.find((fs) => fs.mount === '/' || /^[A-Z]:\\?$/i.test(fs.mount)) ?? sizes[0];
    return root ? round(root.use) : 0;
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
