import { Session } from 'node:inspector/promises';

/** The portal's thread's time during some work, by where it went, per request. */
export interface ProfileSummary {
  requests: number;
  /** Milliseconds per request by part: the portal's own code by file, libraries by package, the runtime by kind. */
  parts: { part: string; ms: number }[];
  /** The functions that took the most time themselves, per request. */
  functions: { name: string; ms: number }[];
}

/**
 * Samples the portal's thread (the benchmark runs the portal in its own process) while `work`
 * sends calls (it answers how many), and sums each function's own time by part. The caller's
 * thread is not sampled: its time is not the portal's.
 */
export async function profile(work: () => Promise<number>): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const requests = Math.max(1, await work());
    const { profile: taken } = await session.post('Profiler.stop');
    const own = new Map<number, number>();
    (taken.samples ?? []).forEach((id, index) =>
      own.set(id, (own.get(id) ?? 0) + (taken.timeDeltas?.[index] ?? 0) / 1000),
    );
    // The profiler's own calls (the inspector session taking the profile) are not the portal's time.
    const parentOf = new Map<number, number>();
    for (const node of taken.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
    const byId = new Map(taken.nodes.map((node) => [node.id, node]));
    const underInspector = (id: number): boolean => {
      for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at))
        if (byId.get(at)?.callFrame.url === 'node:inspector') return true;
      return false;
    };
    const parts = new Map<string, number>();
    const functions = new Map<string, number>();
    for (const node of taken.nodes) {
      const ms = own.get(node.id) ?? 0;
      if (ms === 0 || underInspector(node.id)) continue;
      const { url, functionName, lineNumber } = node.callFrame;
      const part = partOf(url, functionName);
      parts.set(part, (parts.get(part) ?? 0) + ms);
      const name = `${functionName || '(anonymous)'} ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
      functions.set(name, (functions.get(name) ?? 0) + ms);
    }
    const perRequest = (entries: Map<string, number>) =>
      [...entries].sort((a, b) => b[1] - a[1]).map(([label, ms]) => ({ label, ms: ms / requests }));
    return {
      requests,
      parts: perRequest(parts).map(({ label, ms }) => ({ part: label, ms })),
      functions: perRequest(functions)
        .filter(({ label }) => !label.startsWith('(idle)'))
        .slice(0, 15)
        .map(({ label, ms }) => ({ name: label, ms })),
    };
  } finally {
    session.disconnect();
  }
}

function shortUrl(url: string): string {
  const packageAt = url.lastIndexOf('node_modules/');
  if (packageAt >= 0) return url.slice(packageAt + 'node_modules/'.length);
  const sourceAt = url.search(/\/(server|contracts|bench)\/src\//);
  return sourceAt >= 0 ? url.slice(sourceAt + 1) : url;
}

/** A library by its package, the portal's code by its file, the runtime by kind. */
function partOf(url: string, functionName: string): string {
  if (!url) {
    // Native frames: the runtime's own work, or time spent waiting in the kernel.
    if (functionName === '(idle)') return 'idle (waiting for the database or the network)';
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === '(program)') return 'runtime (program)';
    return `native: ${functionName}`;
  }
  const short = shortUrl(url);
  if (short !== url && !short.startsWith('server/') && !short.startsWith('contracts/') && !short.startsWith('bench/')) {
    const [scope, name] = short.split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? short);
  }
  if (url.startsWith('node:'))
    return `node: ${
      url
        .slice('node:'.length)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  return short;
}
