import path from 'node:path';
import { z } from 'zod';
import { AGENT_DOWNLOAD_PATH, AGENT_DOWNLOADS, MACHINE_RATE_LIMIT_PER_MINUTE } from '@cfs/contracts/agent';
import { DEFAULT_ENVIRONMENT_NAME } from '@cfs/contracts/constants';
import { parseOutboundAllow } from '@cfs/contracts/outbound-guard';
import { DEFAULT_PERMISSION_PREFIX } from '@cfs/contracts/permissions';
import { StartupProblem } from './startup-problems.js';

/**
 * Environment → typed configuration. Every variable has an embedded default so that
 * `npm start` runs with none set; the README lists them all.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_READ_URL: z.string().optional(),
  PUBLIC_URL: z
    .string()
    .refine(isWebAddress, 'must be an http:// or https:// address, e.g. https://portal.example.com')
    .optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  OIDC_AUTHORITY: z.string().refine(isWebAddress, 'must be an http:// or https:// address').optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_AUDIENCE: z.string().optional(),
  OIDC_SCOPE: z.string().optional(),
  OIDC_ROLES_CLAIM: z.string().default('roles'),
  OIDC_TENANTS_CLAIM: z.string().default('tenants'),
  OIDC_GROUPS_CLAIM: z.string().default('groups'),
  OIDC_USERNAME_CLAIM: z.string().default('preferred_username'),
  SESSION_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 3600),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  PERMISSION_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/)
    .default(DEFAULT_PERMISSION_PREFIX),
  ENVIRONMENT_NAME: z.string().default(DEFAULT_ENVIRONMENT_NAME),
  ENVIRONMENT_COLOR: z.string().default('#1565c0'),
  LICENSE_EXPIRATION: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
  DEMO_SEED: z.enum(['true', 'false']).optional(),
  TRUST_PROXY: z.string().default('false'),
  WEB_DIST: z.string().optional(),
  AGENT_DIST: z.string().optional(),
  DEMO_AGENT: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEV_ORIGINS: z.string().default(''),
  FEATURES: z.string().default(''),
  ACCESS_REQUEST_TENANT_ID: z
    .string()
    .regex(/^[0-9a-fA-F-]{36}$/, 'a tenant id (GUID)')
    .optional(),
  AGENT_DOWNLOAD_URL: z.string().optional(),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  MACHINE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(MACHINE_RATE_LIMIT_PER_MINUTE),
  TENANT_CONCURRENT_READS: z.coerce.number().int().min(1).default(1),
  SECRETS_KEY: z.string().optional(),
  SECRETS_PREVIOUS_KEYS: z.string().optional(),
  PACKET_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  PACKAGE_UPLOAD_MAX_MB: z.coerce.number().positive().default(200),
  FILE_STORE: z.enum(['folder', 'database']).default('folder'),
  FILE_STORE_DIR: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().optional(),
  OUTBOUND_ALLOW: z
    .string()
    .default('')
    .superRefine((text, context) => {
      try {
        parseOutboundAllow(text);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: String(error instanceof Error ? error.message : error).replace(/^OUTBOUND_ALLOW: /, ''),
        });
      }
    }),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').or(z.literal('')).optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
});

/** FILE_STORE=folder with FILE_STORE_DIR (default DATA_DIR/files), or FILE_STORE=database. */
export type FileStoreSetting = { kind: 'folder'; dir: string } | { kind: 'database' };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** A streaming replica of that database for list, export, report and dashboard reads (db/read-routing.ts). */
  databaseReadUrl: string | undefined;
  /** The longest one statement of the portal's work may run (0: no limit); migrations run without it. */
  statementTimeoutMs: number;
  /** Calls per minute of the agent API and packet ingestion from one tenant API token (http/rate-limits.ts). */
  machineRateLimitPerMinute: number;
  /** Signed-in reads one tenant runs at once on one instance; the rest wait their turn (http/tenant-shares.ts). */
  tenantConcurrentReads: number;
  publicUrl: string;
  role: 'all' | 'api' | 'worker';
  /** Unset OIDC_AUTHORITY means the embedded identity provider at {publicUrl}/oidc. */
  oidc: {
    embedded: boolean;
    authority: string;
    clientId: string;
    audience: string;
    scope: string;
    rolesClaim: string;
    tenantsClaim: string;
    /** Claim holding the names of the user's assignment groups ("My groups"). */
    groupsClaim: string;
    userNameClaim: string;
  };
  sessionLifetimeSeconds: number;
  accessTokenTtlSeconds: number;
  permissionPrefix: string;
  environment: { name: string; color: string; licenseExpiration: string };
  version: string;
  demoSeed: boolean;
  /**
   * Whether X-Forwarded-* headers are believed: `false` (default), `true`, or the proxies'
   * addresses/CIDRs. Believing them without a proxy would let any client pick its own address.
   */
  trustProxy: boolean | string[];
  webDist: string;
  /** Where the agent's single executables are built (`npm run build`) and served from. */
  agentDist: string;
  /** In demo mode, one local agent runs beside the portal (DEMO_AGENT=false turns it off). */
  demoAgent: boolean;
  logLevel: string;
  /** Extra browser origins allowed as OIDC redirect targets (the Vite dev server). */
  devOrigins: string[];
  /** Feature flags that are on, lower-cased (FEATURES=I3ERequestForm,...). */
  features: string[];
  /** The tenant whose work units carry access requests (ACCESS_REQUEST_TENANT_ID); unset: the installation's first tenant. */
  accessRequestTenantId: string | undefined;
  /** Where the Welcome page's Download Windows Agent button leads (default: the portal's own build). */
  agentDownloadUrl: string;
  /** Encryption of secrets at rest; unset key = one generated under DATA_DIR/keys. */
  secrets: { key: string | undefined; previousKeys: string | undefined };
  /** Days of packet history kept: older days' partitions are dropped and older packets refused. */
  packetRetentionDays: number;
  /** The largest package version file an upload may bring, in bytes (PACKAGE_UPLOAD_MAX_MB). */
  packageUploadMaxBytes: number;
  /** Where package files are kept (files/content-store.ts): a folder (FILE_STORE_DIR, shared by every instance) or the database. */
  fileStore: FileStoreSetting;
  /**
   * Email delivery (DESIGN: nodemailer over SMTP when SMTP_URL is set, smtp://user:pass@host:port or
   * smtps://…); unset, every email stays in the outbox table that administrators read in the portal.
   */
  smtp: { url: string | undefined; from: string };
  /**
   * Internal targets actions may call although the outbound guard refuses them otherwise
   * (OUTBOUND_ALLOW: comma-separated `host`, `host:port` or CIDR entries; default none).
   */
  outboundAllow: string;
  /**
   * Prometheus metrics (GET /metrics): on the portal's port for a scraper sending this bearer token
   * (METRICS_TOKEN), and/or without a token on a port of their own (METRICS_PORT, on HOST), which
   * the worker role serves too. Neither set: no metrics are served.
   */
  metrics: { token: string | undefined; port: number | undefined };
  /** How long a stopping process waits for its requests and jobs in hand before it exits anyway. */
  shutdownTimeoutSeconds: number;
  /**
   * How long a claimed job stays its worker's without a sign of life (renewed every third of it
   * while the job runs): a killed worker's jobs run elsewhere after at most this long.
   */
  jobLeaseSeconds: number;
}

const serverRoot = path.resolve(import.meta.dirname, '..');

function parseTrustProxy(value: string): boolean | string[] {
  if (value === 'true' || value === 'false') return value === 'true';
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An absolute http(s) address: what people open and the embedded identity provider's issuer. */
function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, version = '0.1.0'): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new StartupProblem(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const embedded = !e.OIDC_AUTHORITY;
  // A license that nobody configured runs for a year from today's date, so the dialog has something to show.
  const licenseExpiration = e.LICENSE_EXPIRATION ?? new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  return {
    port: e.PORT,
    // A demo (accounts admin/admin…) listens on this machine only unless HOST says otherwise.
    host: e.HOST ?? ((e.DEMO_SEED ? e.DEMO_SEED === 'true' : !e.DATABASE_URL) ? '127.0.0.1' : '0.0.0.0'),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    databaseReadUrl: e.DATABASE_READ_URL || undefined,
    statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    machineRateLimitPerMinute: e.MACHINE_RATE_LIMIT_PER_MINUTE,
    tenantConcurrentReads: e.TENANT_CONCURRENT_READS,
    publicUrl,
    role: e.ROLE,
    oidc: {
      embedded,
      authority: e.OIDC_AUTHORITY?.replace(/\/+$/, '') ?? `${publicUrl}/oidc`,
      clientId: e.OIDC_CLIENT_ID ?? 'cfs-portal',
      audience: e.OIDC_AUDIENCE ?? `${publicUrl}/api`,
      scope: e.OIDC_SCOPE ?? (embedded ? 'openid profile email offline_access' : 'openid profile email'),
      rolesClaim: e.OIDC_ROLES_CLAIM,
      tenantsClaim: e.OIDC_TENANTS_CLAIM,
      groupsClaim: e.OIDC_GROUPS_CLAIM,
      userNameClaim: e.OIDC_USERNAME_CLAIM,
    },
    sessionLifetimeSeconds: e.SESSION_LIFETIME_SECONDS,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    permissionPrefix: e.PERMISSION_PREFIX,
    environment: { name: e.ENVIRONMENT_NAME, color: e.ENVIRONMENT_COLOR, licenseExpiration },
    version,
    // Demo accounts (admin/admin…) only where nobody set a real database, unless asked for.
    demoSeed: e.DEMO_SEED ? e.DEMO_SEED === 'true' : !e.DATABASE_URL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    webDist: path.resolve(e.WEB_DIST ?? path.join(serverRoot, '..', 'web', 'dist')),
    agentDist: path.resolve(e.AGENT_DIST ?? path.join(serverRoot, '..', 'agent', 'dist')),
    demoAgent: (e.DEMO_SEED ? e.DEMO_SEED === 'true' : !e.DATABASE_URL) && e.DEMO_AGENT !== 'false',
    logLevel: e.LOG_LEVEL,
    devOrigins: e.DEV_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    secrets: { key: e.SECRETS_KEY, previousKeys: e.SECRETS_PREVIOUS_KEYS },
    agentDownloadUrl: e.AGENT_DOWNLOAD_URL || `${publicUrl}${AGENT_DOWNLOAD_PATH}/${AGENT_DOWNLOADS.winX64}`,
    features: e.FEATURES.split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
    accessRequestTenantId: e.ACCESS_REQUEST_TENANT_ID?.toLowerCase() || undefined,
    packetRetentionDays: e.PACKET_RETENTION_DAYS,
    packageUploadMaxBytes: Math.floor(e.PACKAGE_UPLOAD_MAX_MB * 1024 * 1024),
    fileStore:
      e.FILE_STORE === 'database'
        ? { kind: 'database' }
        : { kind: 'folder', dir: path.resolve(e.FILE_STORE_DIR ?? path.join(e.DATA_DIR, 'files')) },
    smtp: { url: e.SMTP_URL || undefined, from: e.SMTP_FROM || `CFS Portal <no-reply@${new URL(publicUrl).hostname}>` },
    outboundAllow: e.OUTBOUND_ALLOW,
    metrics: { token: e.METRICS_TOKEN || undefined, port: e.METRICS_PORT },
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
  };
}
