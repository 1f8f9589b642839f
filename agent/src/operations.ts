import fs from 'node:fs/promises';
import path from 'node:path';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import type { HostMetrics } from './host-metrics.js';
import { DEFAULT_TIMEOUT_MS, httpRequest, tcpCheck, type OutboundPolicy } from './http-check.js';
import { readJsonPath } from './json-path.js';
import { parameter, requireParameter } from './parameters.js';
import { readablePath, type ReadPolicy } from './read-allow.js';

/** What one run of an operation found: its value for the packet, and words for the operation log. */
export interface OperationResult {
  ok: boolean;
  value: number | string;
  detail: string;
  metrics: Record<string, number>;
}

type Parameters = ReadonlyMap<string, string | undefined>;

export interface OperationContext {
  metrics: HostMetrics;
  /** Where the operation's calls may connect. */
  outbound: OutboundPolicy;
  /** Which files the operation may read. */
  files: ReadPolicy;
}

const timeoutOf = (parameters: Parameters) => {
  const seconds = Number(parameter(parameters, 'TimeoutSeconds', 'Timeout'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 120) * 1000 : DEFAULT_TIMEOUT_MS;
};

const numericOr = (value: unknown): number | string => {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
};

function expectedStatus(parameters: Parameters): (status: number) => boolean {
  const expected = parameter(parameters, 'ExpectedStatus', 'ExpectStatus');
  if (!expected) return (status) => status >= 200 && status < 400;
  const codes = expected.split(',').map((code) => Number(code.trim()));
  return (status) => codes.includes(status);
}

function headersOf(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  const parsed = JSON.parse(text) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('Headers must be a JSON object');
  return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
}

/**
 * Metric: a figure of this machine. `Metric` is Cpu (the default, with memory beside it), Memory,
 * Disk (percent used) or DiskFree (percent free). A `Mount` names the disk (a path on Linux and
 * macOS, a drive such as C: on Windows; the system disk when empty) and, without `Metric`, makes
 * the operation a free-space figure: "Free Disk Space" is a Metric with a Mount.
 */
async function metric(parameters: Parameters, context: OperationContext): Promise<OperationResult> {
  const mount = parameter(parameters, 'Mount', 'Drive');
  const which = (parameter(parameters, 'Metric', 'Name') ?? (mount ? 'DiskFree' : 'Cpu')).toLowerCase();
  if (which.startsWith('disk')) {
    const disk = await context.metrics.disk(mount);
    const free = which !== 'disk' && which !== 'diskused';
    const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;
    return {
      ok: true,
      value: free ? disk.freePercent : disk.usedPercent,
      detail: `Disk ${disk.mount}: ${disk.freePercent}% free, ${disk.usedPercent}% used (${gigabytes(disk.freeBytes)} free of ${gigabytes(disk.sizeBytes)})`,
      metrics: { DiskPercent: disk.usedPercent, DiskFreePercent: disk.freePercent },
    };
  }
  const sample = await context.metrics.sample();
  if (which.startsWith('mem'))
    return {
      ok: true,
      value: sample.memoryPercent,
      detail: `Memory ${sample.memoryPercent}%`,
      metrics: { MemoryPercent: sample.memoryPercent },
    };
  return {
    ok: true,
    value: sample.cpuPercent,
    detail: `CPU ${sample.cpuPercent}%, memory ${sample.memoryPercent}%`,
    metrics: { CpuPercent: sample.cpuPercent, MemoryPercent: sample.memoryPercent },
  };
}

/** Availability: an HTTP(S) address answers with an expected status, or a TCP port (tcp://host:port, or Host and Port) accepts a connection. */
async function availability(parameters: Parameters, { outbound }: OperationContext): Promise<OperationResult> {
  const timeoutMs = timeoutOf(parameters);
  const url = parameter(parameters, 'Url', 'Address');
  const host = parameter(parameters, 'Host');
  if (url?.startsWith('tcp://') || (!url && host)) {
    const target = url ? new URL(url) : undefined;
    const hostName = target?.hostname ?? host!;
    const port = Number(target?.port || requireParameter(parameters, 'Port'));
    try {
      const { ms } = await tcpCheck(outbound, hostName, port, timeoutMs);
      return {
        ok: true,
        value: 1,
        detail: `${hostName}:${port} accepted a connection in ${ms} ms`,
        metrics: { ResponseMs: ms },
      };
    } catch (error) {
      return {
        ok: false,
        value: 0,
        detail: `${hostName}:${port} is not available: ${(error as Error).message}`,
        metrics: {},
      };
    }
  }
  const address = requireParameter(parameters, 'Url');
  const method = (parameter(parameters, 'Method') ?? 'GET').toUpperCase();
  try {
    const outcome = await httpRequest(outbound, address, { method, timeoutMs });
    const ok = expectedStatus(parameters)(outcome.status);
    return {
      ok,
      value: ok ? 1 : 0,
      detail: `${method} ${address} answered ${outcome.status} in ${outcome.ms} ms`,
      metrics: { ResponseMs: outcome.ms, StatusCode: outcome.status },
    };
  } catch (error) {
    return { ok: false, value: 0, detail: `${method} ${address} failed: ${(error as Error).message}`, metrics: {} };
  }
}

/** ApiRead: GET a JSON document and read the value at `JsonPath`. */
async function apiRead(parameters: Parameters, { outbound }: OperationContext): Promise<OperationResult> {
  const address = requireParameter(parameters, 'Url');
  const path = parameter(parameters, 'JsonPath', 'Path') ?? '$';
  const headers = headersOf(parameter(parameters, 'Headers'));
  const outcome = await httpRequest(outbound, address, {
    method: 'GET',
    timeoutMs: timeoutOf(parameters),
    ...(headers ? { headers } : {}),
  });
  if (outcome.status < 200 || outcome.status >= 300)
    return {
      ok: false,
      value: outcome.status,
      detail: `GET ${address} answered ${outcome.status}`,
      metrics: { StatusCode: outcome.status },
    };
  const read = readJsonPath(JSON.parse(outcome.body) as unknown, path);
  if (!read.found)
    return { ok: false, value: '', detail: `GET ${address}: nothing at ${path}`, metrics: { ResponseMs: outcome.ms } };
  const value = numericOr(read.value);
  return {
    ok: true,
    value,
    detail: `GET ${address}: ${path} = ${String(value).slice(0, 200)}`,
    metrics: { ResponseMs: outcome.ms },
  };
}

/**
 * LocalFileRead: a file of this machine, whole (trimmed, up to 4000 characters), at a JSON path, or
 * the first group of a pattern; only within the folders this agent may read (read-allow.ts). A
 * relative path is within the agent's data folder, the one place every agent may read: the same
 * operation then works on Linux and Windows, wherever each agent keeps its data.
 */
async function localFileRead(parameters: Parameters, { files }: OperationContext): Promise<OperationResult> {
  const file = requireParameter(parameters, 'Path', 'FilePath', 'File');
  const text = await fs.readFile(await readablePath(files, path.resolve(files.dataDir, file)), 'utf8');
  const jsonPath = parameter(parameters, 'JsonPath');
  const pattern = parameter(parameters, 'Pattern', 'Regex');
  if (jsonPath) {
    const read = readJsonPath(JSON.parse(text) as unknown, jsonPath);
    if (!read.found) return { ok: false, value: '', detail: `${file}: nothing at ${jsonPath}`, metrics: {} };
    return { ok: true, value: numericOr(read.value), detail: `${file}: ${jsonPath} read`, metrics: {} };
  }
  if (pattern) {
    const match = new RegExp(pattern, 'm').exec(text);
    if (!match) return { ok: false, value: '', detail: `${file}: the pattern did not match`, metrics: {} };
    return { ok: true, value: numericOr(match[1] ?? match[0]), detail: `${file}: the pattern matched`, metrics: {} };
  }
  const content = text.trim().slice(0, 4000);
  return {
    ok: true,
    value: numericOr(content),
    detail: `${file}: ${text.length} characters read`,
    metrics: { Bytes: Buffer.byteLength(text) },
  };
}

interface SyntheticStep {
  Name?: string;
  Method?: string;
  Url: string;
  Body?: unknown;
  Headers?: Record<string, string>;
  ExpectStatus?: number;
  ExpectText?: string;
  /** Values to keep for later steps, by name: a JSON path into this step's response. */
  Extract?: Record<string, string>;
}

/** `${name}` in a later step's address, body or headers is replaced by a value an earlier step extracted. */
const substitute = (text: string, values: ReadonlyMap<string, string>) =>
  text.replace(/\$\{(\w+)\}/g, (whole, name: string) => values.get(name) ?? whole);

/** Synthetic: a scripted sequence of HTTP steps (`Steps`, a JSON list); it passes when every step does. */
async function synthetic(parameters: Parameters, { outbound }: OperationContext): Promise<OperationResult> {
  const steps = JSON.parse(requireParameter(parameters, 'Steps', 'Script')) as SyntheticStep[];
  if (!Array.isArray(steps) || steps.length === 0) throw new Error('Steps must be a JSON list of steps');
  const values = new Map<string, string>();
  const lines: string[] = [];
  let total = 0;
  for (const [index, step] of steps.entries()) {
    const name = step.Name ?? `Step ${index + 1}`;
    const method = (step.Method ?? 'GET').toUpperCase();
    const url = substitute(step.Url, values);
    const body =
      step.Body === undefined
        ? undefined
        : substitute(typeof step.Body === 'string' ? step.Body : JSON.stringify(step.Body), values);
    const headers = Object.fromEntries(
      Object.entries(step.Headers ?? {}).map(([key, value]) => [key, substitute(value, values)]),
    );
    if (body !== undefined && !Object.keys(headers).some((key) => key.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    let outcome;
    try {
      outcome = await httpRequest(outbound, url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs: timeoutOf(parameters),
      });
    } catch (error) {
      lines.push(`${name}: ${method} ${url} failed: ${(error as Error).message}`);
      return { ok: false, value: total, detail: lines.join('\n'), metrics: { Steps: index, TotalMs: total } };
    }
    total += outcome.ms;
    const statusOk = step.ExpectStatus
      ? outcome.status === step.ExpectStatus
      : outcome.status >= 200 && outcome.status < 400;
    const textOk = !step.ExpectText || outcome.body.includes(step.ExpectText);
    lines.push(
      `${name}: ${method} ${url} → ${outcome.status} in ${outcome.ms} ms${textOk ? '' : ` (missing "${step.ExpectText}")`}`,
    );
    if (!statusOk || !textOk)
      return { ok: false, value: total, detail: lines.join('\n'), metrics: { Steps: index, TotalMs: total } };
    if (step.Extract) {
      const document = JSON.parse(outcome.body) as unknown;
      for (const [key, path] of Object.entries(step.Extract)) {
        const read = readJsonPath(document, path);
        if (read.found) values.set(key, typeof read.value === 'string' ? read.value : JSON.stringify(read.value));
      }
    }
  }
  return { ok: true, value: total, detail: lines.join('\n'), metrics: { Steps: steps.length, TotalMs: total } };
}

/**
 * Authentication: a login works. With a token endpoint (or an issuer's
 * `.well-known/openid-configuration`), an OAuth 2 / OIDC token request: the password grant when a
 * Username is given, else client credentials. With `Mode` Form, a POST of the user name and
 * password as JSON that must answer 2xx. Secrets never appear in the log.
 */
async function authentication(parameters: Parameters, { outbound }: OperationContext): Promise<OperationResult> {
  let endpoint = requireParameter(parameters, 'Url', 'TokenUrl', 'Authority');
  const timeoutMs = timeoutOf(parameters);
  const username = parameter(parameters, 'Username', 'UserName');
  const password = parameter(parameters, 'Password');
  if ((parameter(parameters, 'Mode') ?? '').toLowerCase() === 'form') {
    const outcome = await httpRequest(outbound, endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
      timeoutMs,
    });
    const ok = outcome.status >= 200 && outcome.status < 300;
    return {
      ok,
      value: outcome.ms,
      detail: `Login at ${endpoint} answered ${outcome.status} in ${outcome.ms} ms`,
      metrics: { ResponseMs: outcome.ms, StatusCode: outcome.status },
    };
  }
  let discoveryMs = 0;
  if (endpoint.includes('/.well-known/openid-configuration') || parameter(parameters, 'Authority') === endpoint) {
    const discoveryUrl = endpoint.includes('/.well-known/')
      ? endpoint
      : `${endpoint.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const discovery = await httpRequest(outbound, discoveryUrl, { timeoutMs });
    if (discovery.status !== 200)
      return {
        ok: false,
        value: discovery.ms,
        detail: `Discovery at ${discoveryUrl} answered ${discovery.status}`,
        metrics: { StatusCode: discovery.status },
      };
    endpoint = String((JSON.parse(discovery.body) as { token_endpoint?: string }).token_endpoint ?? '');
    if (!endpoint)
      return {
        ok: false,
        value: discovery.ms,
        detail: `Discovery at ${discoveryUrl} names no token endpoint`,
        metrics: {},
      };
    discoveryMs = discovery.ms;
  }
  const form = new URLSearchParams();
  const clientId = parameter(parameters, 'ClientId');
  const clientSecret = parameter(parameters, 'ClientSecret');
  const scope = parameter(parameters, 'Scope');
  if (username) {
    form.set('grant_type', 'password');
    form.set('username', username);
    form.set('password', password ?? '');
  } else form.set('grant_type', 'client_credentials');
  if (clientId) form.set('client_id', clientId);
  if (clientSecret) form.set('client_secret', clientSecret);
  if (scope) form.set('scope', scope);
  const outcome = await httpRequest(outbound, endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    timeoutMs,
  });
  let hasToken: boolean;
  try {
    hasToken = typeof (JSON.parse(outcome.body) as { access_token?: unknown }).access_token === 'string';
  } catch {
    hasToken = false;
  }
  const ok = outcome.status === 200 && hasToken;
  const ms = outcome.ms + discoveryMs;
  return {
    ok,
    value: ms,
    detail: `Token request (${form.get('grant_type')}) at ${endpoint} answered ${outcome.status}${ok ? ' with an access token' : ''} in ${ms} ms`,
    metrics: { ResponseMs: ms, StatusCode: outcome.status },
  };
}

const RUNNERS: Record<number, (parameters: Parameters, context: OperationContext) => Promise<OperationResult>> = {
  [OPERATION_TYPES.Metric]: metric,
  [OPERATION_TYPES.Availability]: availability,
  [OPERATION_TYPES.ApiRead]: apiRead,
  [OPERATION_TYPES.LocalFileRead]: localFileRead,
  [OPERATION_TYPES.Synthetic]: synthetic,
  [OPERATION_TYPES.Authentication]: authentication,
};

/** Runs one operation; a thrown error (a missing parameter, bad JSON, an unreachable host) is a failed result, never a crash. */
export async function runOperation(
  operationTypeId: number,
  parameters: Parameters,
  context: OperationContext,
): Promise<OperationResult> {
  const runner = RUNNERS[operationTypeId];
  if (!runner)
    return { ok: false, value: '', detail: `This agent does not know operation type ${operationTypeId}`, metrics: {} };
  try {
    return await runner(parameters, context);
  } catch (error) {
    return { ok: false, value: '', detail: (error as Error).message, metrics: {} };
  }
}
