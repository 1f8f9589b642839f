import type { RoutePermission } from '../src/http/route-permission.js';
import { randomBytes } from 'node:crypto';
import type { TestPortal } from './harness.js';

/*
 * What the authorization matrix's probes are written with. Each area keeps the requests it needs
 * beside its routes, in `src/areas/<area>/route-probes.ts` exporting `probes` (an `AreaProbes`);
 * route-probes.ts finds them by reading the areas' folders.
 */

/** Objects of one tenant for every registered route; `own` holds those an area makes itself (`AreaProbes.objects`). */
export interface Objects {
  tenantId: string;
  subscriptionId: string;
  workUnitId: number;
  categoryId: number;
  subcategoryId: number;
  tokenGrantId: string;
  secretId: string;
  disposableSecretId: string;
  savedViewId: string;
  disposableSavedViewId: string;
  /** An entity the tenant has reported a packet for. */
  entityId: string;
  deviceId: string;
  /** A second device of the tenant: the target of a clone. */
  otherDeviceId: string;
  /** A shared (tenantless) operation that runs on demand or recurring. */
  operationId: string;
  deviceOperationId: string;
  disposableDeviceOperationId: string;
  pendingDeviceId: string;
  disposablePendingDeviceId: string;
  /** A device without operations, which can be deleted. */
  disposableDeviceId: string;
  /** A package of the tenant's own, with an operation and a version that is not the Latest. */
  packageId: string;
  disposablePackageId: string;
  packageOperationId: string;
  disposablePackageOperationId: string;
  packageVersionId: string;
  blockId: string;
  disposableBlockId: string;
  /** A rule of the tenant, and one to delete. */
  ruleId: string;
  disposableRuleId: string;
  /** A protocol step of the tenant that sends an email. */
  emailStepId: string;
  /** A protocol of the tenant with a step, one of each to delete, and a unit following it whose manual step is pending. */
  protocolId: number;
  disposableProtocolId: number;
  protocolActionId: string;
  disposableProtocolActionId: string;
  manualWorkUnitId: number;
  /** An action of the tenant, one to delete, and a run of it. */
  actionDefinitionId: string;
  disposableActionDefinitionId: string;
  actionHistoryId: number;
  /** A communication of the tenant with an activity, one of each to delete. */
  communicationId: string;
  disposableCommunicationId: string;
  communicationActivityId: string;
  disposableCommunicationActivityId: string;
  /** A shipped control set, one of its controls, and the tenant's status of it (one to delete). */
  controlSetId: string;
  controlId: string;
  controlStatusId: string;
  disposableControlStatusId: string;
  /** A device enrolled as an agent: its credential, an on-demand operation queued with a completion token, a package it is to install and that version's file. */
  agentDeviceId: string;
  agentCredential: string;
  agentDeviceOperationId: string;
  /** A Script operation of the agent's device (its runs are reported). */
  agentScriptDeviceOperationId: string;
  /** That Script operation of the package (Run Script queues it on devices). */
  agentScriptOperationId: string;
  agentCompletionToken: string;
  agentPackageId: string;
  agentPackageVersionId: string;
  /** The objects the areas made for themselves, by name. */
  own: Record<string, string>;
}

/** Keys are routes as `METHOD /url` (the registered url, with its `:params`). */
export interface AreaProbes {
  /**
   * Who may call each of the area's routes, as the matrix expects it to answer, keyed by
   * `METHOD /path` (server/test/expected-access.ts): written by hand, apart from the routes' own
   * declarations.
   */
  access?: Readonly<Record<string, RoutePermission>>;
  /** Objects of the area for one tenant, made before the walk; its bodies and `param` read them as `o.own.<name>`. */
  objects?: (
    portal: TestPortal,
    scope: { tenantId: string; subscriptionId: string },
  ) => Promise<Record<string, string>>;
  /** A path parameter's value for one of the area's routes; undefined leaves it to the shared rules. */
  param?: (url: string, name: string, o: Objects, method: string) => string | undefined;
  /** The body of each write route, built for the tenant whose objects are used (`() => undefined` for none). */
  bodies?: Record<string, (o: Objects) => unknown>;
  /** Query strings of the reads (and writes) that need one. */
  queries?: Record<string, (o: Objects) => string>;
  /** Multipart bodies (an upload): the form fields; one file is added. */
  multipart?: Record<string, (o: Objects) => Record<string, string>>;
  /**
   * Routes that name no tenant-owned object: shared by every tenant (work unit types, people, the
   * built-in actions), creating a tenant, a list's export sent by POST (its rows are the caller's
   * scope, as the GET export's), a machine's report about itself (its tenant is its credential's),
   * or a history read through the caller's scope (another tenant's entity has none to show).
   */
  notTenantBound?: readonly string[];
  /**
   * Routes that change what every tenant sees (the installation's service levels): only staff of
   * every tenant may call them, so every caller of the walk (each limited to its tenant) that holds
   * the permission is expected to be refused with 403.
   */
  installationOnly?: readonly string[];
}

export const stamp = () => Math.random().toString(36).slice(2, 8);

export const VIEW_STATE = { filters: [], sort: [{ field: 'created', direction: 'desc' }], columns: {} };

/** A compliance week no other call of the walk has used (one record per tenant, control and week). */
export const randomWeek = () =>
  `${2100 + Math.floor(Math.random() * 800)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;

/**
 * Secrets the probes send where a caller would: none of them may reach a log line. Long and
 * random, so that finding one in the log is never a coincidence.
 */
export const PROBE_SECRETS = {
  password: `pw-${randomBytes(12).toString('hex')}`,
  refreshToken: `rt-${randomBytes(16).toString('hex')}`,
  authorizationCode: `code-${randomBytes(16).toString('hex')}`,
  tenantSecret: `secret-${randomBytes(16).toString('hex')}`,
  agentKeys: [] as string[],
  agentKey(): string {
    const key = randomBytes(32).toString('base64url');
    this.agentKeys.push(key);
    return key;
  },
};
