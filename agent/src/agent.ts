import os from 'node:os';
import {
  AGENT_CONFIGURATION_POLL_MS,
  AGENT_CONFIGURATION_WAIT_SECONDS,
  AGENT_DEFAULT_HEARTBEAT_SECONDS,
  AGENT_PENDING_POLL_MS,
  type AgentConfiguration,
  type AgentOperation,
  type AgentRelease,
  type AgentVersionReport,
  type EnrolmentResult,
  type InstallationReport,
} from '@cfs/contracts/agent';
import { FREQUENCY_TYPES, HEARTBEAT_METRICS, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { AgentLog } from './agent-log.js';
import { backoffDelay } from './backoff.js';
import { DataFolder, loadIdentity, saveIdentity, type Identity } from './data-folder.js';
import { HostMetrics } from './host-metrics.js';
import { Installer } from './installer.js';
import { collectInventory } from './inventory.js';
import { outboundPolicy, type OutboundPolicy } from './http-check.js';
import { runOperation, type OperationResult } from './operations.js';
import { readPolicy, type ReadPolicy } from './read-allow.js';
import { pinnedScriptKey, runScript, scriptPolicy, type ScriptPolicy } from './scripts.js';
import { Outbox, type OutboxItem } from './outbox.js';
import { confirmTrial, onTrial, readReleases, recentlyGivenUp, stageRelease, writeReleases } from './releases.js';
import { OutboxDelivery } from './outbox-delivery.js';
import { resolveParameters, securedValues, withoutSecrets } from './parameters.js';
import { PortalClient, PortalError } from './portal-client.js';
import { Sleeper } from './sleeper.js';
import { dueOperations, emptyScheduleState, msUntilNextDue, oneTimeKey, pruneScheduleState } from './scheduler.js';
import { AGENT_VERSION } from './version.js';

export interface AgentOptions {
  server: string;
  token: string;
  dataDir: string;
  /** The name the device is known by; the host name unless given (several agents on one machine). */
  machineName?: string;
  /** How often the configuration is fetched (the portal's default unless a test shortens it). */
  pollMs?: number;
  /** Whether the configuration call asks the portal to hold it until a change (default true; false polls only). */
  holdConfiguration?: boolean;
  quiet?: boolean;
  /** Internal targets this machine's owner lets operations call besides the portal (CFS_AGENT_OUTBOUND_ALLOW). */
  outboundAllow?: string;
  /** Folders besides its data folder whose files operations may read (CFS_AGENT_READ_ALLOW). */
  readAllow?: string;
  /** The catalogue packages whose scripts this agent may run, by name (CFS_AGENT_SCRIPT_ALLOW); none without it. */
  scriptAllow?: string;
  /** How often the inventory is reported (daily unless a test shortens it). */
  inventoryEveryMs?: number;
  /**
   * Whether the agent takes the versions the portal offers (agent/src/releases.ts): its machine lets
   * it (`--self-update`, on by default) and a service manager starts it again, which an update needs.
   */
  selfUpdate?: boolean;
}

/** How often the agent reports its machine's inventory, and how soon it tries again after a failure. */
const INVENTORY_EVERY_MS = 24 * 60 * 60 * 1000;
const INVENTORY_RETRY_MS = 60 * 60 * 1000;
const INVENTORY_FILE = 'inventory.json';

/** How a run of the agent ended: the portal asked for a restart, the agent was stopped, or the portal refused it for good. */
export type AgentExit = { kind: 'restart' } | { kind: 'stopped' } | { kind: 'refused'; message: string };

const ONE_TIME_FILE = 'one-time.json';

/**
 * The device agent: enrols with the tenant token, waits for promotion, then keeps its device
 * alive in the portal — configuration, heartbeats with this machine's CPU and memory, operations
 * on their frequencies, package installs, upgrades and removals — and reports through the on-disk outbox.
 */
export class Agent {
  readonly log: AgentLog;
  private readonly folder: DataFolder;
  private readonly client: PortalClient;
  private readonly outbox: Outbox;
  private readonly delivery: OutboxDelivery;
  private readonly metrics = new HostMetrics();
  private readonly outbound: OutboundPolicy;
  private readonly files: ReadPolicy;
  private readonly installer: Installer;
  private readonly scripts: ScriptPolicy;
  /** The portal's script key as this agent pinned it (the first it was given). */
  private scriptKey: string | undefined;
  private identity: Identity;
  private configuration: AgentConfiguration | undefined;
  private readonly schedule = emptyScheduleState();
  private readonly sleepers = {
    config: new Sleeper(),
    heartbeat: new Sleeper(),
    scheduler: new Sleeper(),
    pending: new Sleeper(),
    inventory: new Sleeper(),
  };
  private running = false;
  private endSession: ((exit: AgentExit | 'reenrol') => void) | undefined;
  private readonly installFailures = new Map<string, { failures: number; until: number }>();
  /** The offered agent versions this machine will not take, said once each in the log. */
  private readonly declinedReleases = new Set<string>();

  constructor(private readonly options: AgentOptions) {
    this.folder = new DataFolder(options.dataDir);
    this.outbound = outboundPolicy(options.server, options.outboundAllow);
    this.files = readPolicy(this.folder.dir, options.readAllow);
    this.scripts = scriptPolicy(options.scriptAllow);
    this.client = new PortalClient(options.server, `cfs-agent/${AGENT_VERSION} (${process.platform}; ${process.arch})`);
    this.outbox = new Outbox(this.folder.file('outbox.jsonl'));
    this.installer = new Installer(this.folder, this.client);
    this.identity = loadIdentity(this.folder);
    this.log = new AgentLog(options.quiet);
    this.delivery = new OutboxDelivery(this.outbox, this.client, () => this.credential(), this.log);
    for (const name of this.folder.readJson<string[]>(ONE_TIME_FILE) ?? []) this.schedule.oneTimeDone.add(name);
  }

  private get machineName(): string {
    return this.options.machineName ?? os.hostname();
  }

  get deviceId(): string | undefined {
    return this.identity.deviceId;
  }

  /** Ends the run at the next moment it waits. */
  stop(): void {
    this.finish({ kind: 'stopped' });
  }

  private finish(exit: AgentExit | 'reenrol'): void {
    if (!this.running) return;
    if (exit !== 'reenrol') this.running = false;
    this.endSession?.(exit);
    // A configuration call the portal holds ends with the session.
    this.sessionCalls?.abort();
    for (const sleeper of Object.values(this.sleepers)) sleeper.wake();
    this.delivery.wake();
  }

  async run(): Promise<AgentExit> {
    this.running = true;
    this.log.info(
      `CFS agent ${AGENT_VERSION} on ${this.machineName} (${process.platform} ${process.arch}), portal ${this.options.server}, data in ${this.folder.dir}`,
    );
    this.log.info(`Read File operations may read: ${this.files.roots.join(', ')} (--read-allow)`);
    this.log.info(
      this.scripts.packages.length > 0
        ? `Scripts of these packages may run: ${this.scripts.packages.join(', ')} (--script-allow)`
        : 'No script may run (--script-allow names none)',
    );
    while (this.running) {
      const enrolled = await this.enrol();
      if (enrolled) return enrolled;
      const exit = await this.session();
      if (exit !== 'reenrol') return exit;
      this.log.warn('The portal no longer accepts this device credential; enrolling again');
      delete this.identity.credential;
      saveIdentity(this.folder, this.identity);
    }
    return { kind: 'stopped' };
  }

  /** Until this agent holds a device credential; returns an exit only when it must stop. */
  private async enrol(): Promise<AgentExit | undefined> {
    let failures = 0;
    let saidPending = false;
    while (this.running && !this.identity.credential) {
      try {
        const result = await this.client.json<EnrolmentResult>('POST', '/v1/agent/enrol', this.options.token, {
          agentKey: this.identity.agentKey,
          machineName: this.machineName,
          operatingSystem: process.platform,
          architecture: process.arch,
          agentVersion: AGENT_VERSION,
        });
        failures = 0;
        if (result?.status === 'enrolled') {
          this.identity = {
            ...this.identity,
            deviceId: result.deviceId,
            credential: result.credential,
            portalUrl: this.options.server,
          };
          saveIdentity(this.folder, this.identity);
          this.log.info(`Enrolled as device ${result.deviceId}`);
          return undefined;
        }
        if (!saidPending) this.log.info('Waiting for an administrator to promote this pending device');
        saidPending = true;
        await this.sleepers.pending.sleep(
          Math.min(this.options.pollMs ?? AGENT_PENDING_POLL_MS, AGENT_PENDING_POLL_MS),
        );
      } catch (error) {
        if (error instanceof PortalError && !error.transient) {
          this.running = false;
          return { kind: 'refused', message: error.message };
        }
        failures += 1;
        const wait = backoffDelay(failures);
        this.log.warn(`Enrolment failed (${(error as Error).message}); trying again in ${Math.round(wait / 1000)} s`);
        await this.sleepers.pending.sleep(wait);
      }
    }
    return this.running ? undefined : { kind: 'stopped' };
  }

  private credential(): string {
    if (!this.identity.credential) throw new PortalError(401, 'No device credential');
    return this.identity.credential;
  }

  /** One enrolled session: its loops run until a stop, a restart, or a refused credential. */
  private session(): Promise<AgentExit | 'reenrol'> {
    this.log.outbox = this.outbox;
    const generation = ++this.generation;
    this.sessionCalls = new AbortController();
    return new Promise((resolve) => {
      this.endSession = (exit) => {
        this.endSession = undefined;
        resolve(exit);
      };
      void this.configurationLoop(generation);
      void this.heartbeatLoop(generation);
      void this.schedulerLoop(generation);
      void this.outboxLoop(generation);
      void this.inventoryLoop(generation);
      void this.versionLoop(generation);
    });
  }

  /** Each session's loops end with it, even those still waiting when the next session begins. */
  private generation = 0;
  /** Aborts the session's held calls when it ends. */
  private sessionCalls: AbortController | undefined;
  private activeIn(generation: number): boolean {
    return this.running && this.endSession !== undefined && generation === this.generation;
  }

  /** A refused credential ends the session (to enrol again); anything else is the caller's to handle. */
  private refusedCredential(error: unknown): boolean {
    if (error instanceof PortalError && error.refused) {
      this.finish('reenrol');
      return true;
    }
    return false;
  }

  /**
   * Asks for the configuration, and again: the portal holds each call until the configuration
   * changes (or AGENT_CONFIGURATION_WAIT_SECONDS pass), so what is queued for this device reaches it
   * at once; a portal that does not hold them (no Preference-Applied) is asked again after the poll
   * interval.
   */
  private async configurationLoop(generation: number): Promise<void> {
    let failures = 0;
    let known: string | undefined;
    while (this.activeIn(generation)) {
      try {
        const answer = await this.client.revalidated<AgentConfiguration>(
          '/v1/agent/configuration',
          this.credential(),
          known,
          this.options.holdConfiguration === false ? 0 : AGENT_CONFIGURATION_WAIT_SECONDS,
          this.sessionCalls?.signal,
        );
        failures = 0;
        if (answer.body) {
          await this.apply(answer.body, generation);
          known = answer.tag;
        } else if (!known) throw new PortalError(0, 'An empty configuration');
        if (!this.activeIn(generation)) return;
        if (!answer.held) await this.sleepers.config.sleep(this.options.pollMs ?? AGENT_CONFIGURATION_POLL_MS);
      } catch (error) {
        if (this.refusedCredential(error) || !this.activeIn(generation)) return;
        failures += 1;
        this.log.warn(`The configuration could not be fetched: ${(error as Error).message}`);
        await this.sleepers.config.sleep(
          Math.min(backoffDelay(failures), this.options.pollMs ?? AGENT_CONFIGURATION_POLL_MS),
        );
      }
    }
  }

  private async apply(configuration: AgentConfiguration, generation: number): Promise<void> {
    const wasTracing = this.log.tracing;
    this.log.loggingLevel = configuration.loggingLevel;
    this.log.tracing = configuration.tracing;
    if (configuration.tracing && !wasTracing)
      this.log.info(`Tracing is on until ${new Date(configuration.traceExpiration ?? Date.now()).toISOString()}`);
    const first = this.configuration === undefined;
    this.configuration = configuration;
    this.scriptKey = pinnedScriptKey(this.folder, configuration.scriptKey);
    pruneScheduleState(configuration.operations, this.schedule);
    this.log.trace(
      `Configuration: heartbeat ${configuration.heartbeatIntervalSeconds} s, ${configuration.operations.length} operations, ${configuration.packages.length} packages`,
    );
    if (first) this.sleepers.heartbeat.wake();
    this.sleepers.scheduler.wake();

    if (configuration.restartAgent) {
      this.log.info('The portal asked this agent to restart');
      await this.client.json('POST', '/v1/agent/restart/acknowledge', this.credential());
      await this.delivery.flush().catch(() => undefined);
      this.finish({ kind: 'restart' });
      return;
    }
    if (configuration.agentRelease && (await this.updateAgent(configuration.agentRelease))) return;
    await this.installPackages(configuration, generation);
    await this.removePackages(configuration, generation);
  }

  /**
   * Tells the portal the version this agent runs at the start of each session, with what became of
   * the last update (releases.json); a release on trial has then reported, and becomes what this
   * machine runs. Tried again with backoff until the portal has it.
   */
  private async versionLoop(generation: number): Promise<void> {
    let failures = 0;
    while (this.activeIn(generation)) {
      const trial = onTrial(this.folder);
      const { outcome } = readReleases(this.folder);
      const update: AgentVersionReport['update'] = trial
        ? { packageVersionId: trial.packageVersionId, outcome: 'Updated' }
        : outcome;
      try {
        await this.reportVersion(update);
        if (trial) {
          confirmTrial(this.folder);
          this.log.info(`The agent ${AGENT_VERSION} has reported to the portal: it is what this machine runs now`);
        } else if (outcome) {
          const { outcome: _told, ...rest } = readReleases(this.folder);
          writeReleases(this.folder, rest);
        }
        return;
      } catch (error) {
        if (this.refusedCredential(error) || !this.activeIn(generation)) return;
        failures += 1;
        this.log.warn(`The agent version could not be reported: ${(error as Error).message}`);
        await this.sleepers.config.sleep(backoffDelay(failures));
      }
    }
  }

  /** POST /v1/agent/version: the version this agent runs, and what became of an update. */
  private async reportVersion(update: AgentVersionReport['update']): Promise<void> {
    await this.client.json('POST', '/v1/agent/version', this.credential(), {
      agentVersion: AGENT_VERSION,
      ...(update ? { update } : {}),
    } satisfies AgentVersionReport);
  }

  /**
   * Takes the agent version the portal offers, when this machine lets it: checked and put on trial
   * (releases.ts), then the session ends for a restart into it. True when it restarts. A release
   * that fails its checks is reported Refused (the portal halts its rollout) and not tried again
   * before a backoff; a download that fails is tried again later.
   */
  private async updateAgent(offer: AgentRelease): Promise<boolean> {
    if (offer.version === AGENT_VERSION || onTrial(this.folder)) return false;
    if (recentlyGivenUp(this.folder, offer.packageVersionId)) return false;
    if (!this.options.selfUpdate) {
      if (!this.declinedReleases.has(offer.packageVersionId))
        this.log.info(
          `The portal offers the agent ${offer.version}; this agent does not update itself (it runs by hand, or with --self-update off)`,
        );
      this.declinedReleases.add(offer.packageVersionId);
      return false;
    }
    const failed = this.installFailures.get(offer.packageVersionId);
    if (failed && failed.until > Date.now()) return false;
    this.log.info(`Updating the agent from ${AGENT_VERSION} to ${offer.version}`);
    let refused: string | undefined;
    try {
      await stageRelease(this.folder, offer, (destination) =>
        this.client.download(offer.downloadUrl, this.credential(), destination),
      );
    } catch (error) {
      if (this.refusedCredential(error)) return true;
      const failures = (failed?.failures ?? 0) + 1;
      this.installFailures.set(offer.packageVersionId, {
        failures,
        until: Date.now() + backoffDelay(failures, { baseMs: 60_000, maxMs: 6 * 3600_000 }),
      });
      this.log.error(`The agent ${offer.version} could not be taken: ${(error as Error).message}`);
      if (error instanceof PortalError) return false;
      refused = (error as Error).message;
    }
    if (refused !== undefined) {
      await this.reportVersion({ packageVersionId: offer.packageVersionId, outcome: 'Refused', detail: refused }).catch(
        (error: unknown) => this.log.warn(`The refusal could not be reported: ${(error as Error).message}`),
      );
      return false;
    }
    await this.reportVersion({ packageVersionId: offer.packageVersionId, outcome: 'Updating' }).catch(
      (error: unknown) => this.log.warn(`The update could not be reported: ${(error as Error).message}`),
    );
    this.log.info(`Restarting into the agent ${offer.version}, on trial for ${offer.rollbackMinutes} minutes`);
    await this.delivery.flush().catch(() => undefined);
    this.finish({ kind: 'restart' });
    return true;
  }

  private async installPackages(configuration: AgentConfiguration, generation: number): Promise<void> {
    const installed = this.installer.installed();
    for (const pkg of configuration.packages) {
      if (!this.activeIn(generation)) return;
      const local = installed[pkg.packageId];
      if (local?.packageVersionId === pkg.packageVersionId) {
        // Installed here, but the portal has not heard it yet (the report was lost): tell it again.
        if (pkg.installedPackageVersionId !== pkg.packageVersionId)
          await this.report(pkg.packageId, {
            packageVersionId: pkg.packageVersionId,
            status: 'Installed',
            detail: local.path,
          });
        continue;
      }
      const failed = this.installFailures.get(pkg.packageVersionId);
      if (failed && failed.until > Date.now()) continue;
      this.log.info(`Installing ${pkg.packageName} ${pkg.version}`);
      try {
        const { path } = await this.installer.install(pkg, this.credential());
        this.installFailures.delete(pkg.packageVersionId);
        this.log.info(`Installed ${pkg.packageName} ${pkg.version} at ${path}`);
        await this.report(pkg.packageId, { packageVersionId: pkg.packageVersionId, status: 'Installed', detail: path });
      } catch (error) {
        if (this.refusedCredential(error)) return;
        const failures = (failed?.failures ?? 0) + 1;
        this.installFailures.set(pkg.packageVersionId, {
          failures,
          until: Date.now() + backoffDelay(failures, { baseMs: 60_000, maxMs: 6 * 3600_000 }),
        });
        this.log.error(`Installing ${pkg.packageName} ${pkg.version} failed: ${(error as Error).message}`);
        await this.report(pkg.packageId, {
          packageVersionId: pkg.packageVersionId,
          status: 'Failed',
          detail: (error as Error).message,
        });
      }
    }
  }

  /**
   * The packages installed here that the portal no longer lists (it set them to none, spec 002 §7:
   * Removal Pending): their files go, then the portal hears Removed. They are forgotten only once it
   * has heard (or has no installation left to hear it), so a lost report is sent again.
   */
  private async removePackages(configuration: AgentConfiguration, generation: number): Promise<void> {
    for (const local of this.installer.unwanted(configuration.packages)) {
      if (!this.activeIn(generation)) return;
      try {
        await this.installer.remove(local.packageId);
      } catch (error) {
        this.log.error(
          `Removing version ${local.version} of package ${local.packageId} failed: ${(error as Error).message}`,
        );
        continue;
      }
      this.log.info(`Removed version ${local.version} of package ${local.packageId} from ${local.path}`);
      const heard = await this.report(local.packageId, {
        packageVersionId: local.packageVersionId,
        status: 'Removed',
        detail: `Removed from ${local.path}`,
      });
      if (heard) this.installer.forget(local.packageId);
    }
  }

  /** True once the portal has the report, or has no installation of that package to report on. */
  private async report(
    packageId: string,
    body: { packageVersionId: string; status: InstallationReport['status']; detail: string },
  ): Promise<boolean> {
    try {
      await this.client.json('POST', `/v1/agent/installations/${packageId}`, this.credential(), body);
      return true;
    } catch (error) {
      if (error instanceof PortalError && error.status === 404) return true;
      if (!this.refusedCredential(error))
        this.log.warn(`The installation report could not be sent: ${(error as Error).message}`);
      return false;
    }
  }

  /** Heartbeats: this machine's CPU and memory as the device's packet (HEARTBEAT_METRICS). */
  /**
   * Reports the machine's inventory once enrolled, then daily: when the last report (kept in the
   * data folder) is a day old, so a restart does not send it again; an hour after a failure.
   */
  private async inventoryLoop(generation: number): Promise<void> {
    const every = this.options.inventoryEveryMs ?? INVENTORY_EVERY_MS;
    while (this.activeIn(generation)) {
      const last = Date.parse(this.folder.readJson<{ reported: string }>(INVENTORY_FILE)?.reported ?? '');
      const wait = Number.isNaN(last) ? 0 : last + every - Date.now();
      if (wait > 0) {
        await this.sleepers.inventory.sleep(wait);
        continue;
      }
      try {
        const inventory = await collectInventory();
        if (!this.activeIn(generation)) return;
        await this.client.json('POST', '/v1/agent/inventory', this.credential(), inventory);
        this.folder.writeJson(INVENTORY_FILE, { reported: new Date().toISOString() });
        this.log.info(
          `Inventory reported: ${inventory.software.length} software packages, ${inventory.os.name} ${inventory.os.version}`,
        );
      } catch (error) {
        if (this.refusedCredential(error) || !this.activeIn(generation)) return;
        this.log.warn(`The inventory could not be reported: ${(error as Error).message}`);
        await this.sleepers.inventory.sleep(Math.min(every, INVENTORY_RETRY_MS));
      }
    }
  }

  private async heartbeatLoop(generation: number): Promise<void> {
    while (this.activeIn(generation)) {
      const configuration = this.configuration;
      if (!configuration) {
        await this.sleepers.heartbeat.sleep(1000);
        continue;
      }
      try {
        const sample = await this.metrics.sample();
        await this.outbox.append({
          kind: 'packet',
          packet: {
            entityId: configuration.deviceId,
            timestamp: new Date().toISOString(),
            message: {
              Value: sample.cpuPercent,
              Properties: { BlockName: this.machineName },
              Metrics: {
                [HEARTBEAT_METRICS.cpuPercent]: sample.cpuPercent,
                [HEARTBEAT_METRICS.memoryPercent]: sample.memoryPercent,
              },
              States: {},
              Diagnostics: {},
            },
          },
        });
        this.log.trace(`Heartbeat: CPU ${sample.cpuPercent}%, memory ${sample.memoryPercent}%`);
        this.delivery.wake();
      } catch (error) {
        this.log.warn(`The heartbeat could not be measured: ${(error as Error).message}`);
      }
      const seconds =
        configuration.heartbeatIntervalSeconds > 0
          ? configuration.heartbeatIntervalSeconds
          : AGENT_DEFAULT_HEARTBEAT_SECONDS;
      await this.sleepers.heartbeat.sleep(seconds * 1000);
    }
  }

  private async schedulerLoop(generation: number): Promise<void> {
    while (this.activeIn(generation)) {
      const operations = this.configuration?.operations ?? [];
      for (const operation of dueOperations(operations, this.schedule, Date.now())) void this.runOne(operation);
      await this.sleepers.scheduler.sleep(Math.max(200, msUntilNextDue(operations, this.schedule, Date.now(), 5000)));
    }
  }

  private runtimeConfig() {
    return {
      MachineName: this.machineName,
      DeviceId: this.identity.deviceId ?? '',
      PortalUrl: this.options.server,
      DataDirectory: this.folder.dir,
    };
  }

  private async runOne(operation: AgentOperation): Promise<void> {
    const id = operation.deviceOperationId;
    this.schedule.running.add(id);
    this.schedule.lastStarted.set(id, Date.now());
    if (operation.completionToken) this.schedule.tokensRun.add(operation.completionToken);
    try {
      this.log.trace(`Running ${operation.label} (${operation.operationName})`);
      const parameters = resolveParameters(operation.parameters, this.runtimeConfig());
      const ran =
        operation.operationTypeId === OPERATION_TYPES.Script
          ? await this.runScriptOf(operation, parameters)
          : await runOperation(operation.operationTypeId, parameters, {
              metrics: this.metrics,
              outbound: this.outbound,
              files: this.files,
            });
      const secrets = securedValues(operation.parameters);
      const result = {
        ...ran,
        detail: withoutSecrets(ran.detail, secrets),
        value: typeof ran.value === 'string' ? withoutSecrets(ran.value, secrets) : ran.value,
      };
      await this.outbox.append(...this.resultItems(operation, result));
      if (operation.frequencyTypeId === FREQUENCY_TYPES.OneTimeKeepAlive) {
        this.schedule.oneTimeDone.add(oneTimeKey(operation));
        this.folder.writeJson(ONE_TIME_FILE, [...this.schedule.oneTimeDone]);
      }
      this.delivery.wake();
    } catch (error) {
      this.log.error(`${operation.label} could not be reported: ${(error as Error).message}`);
    } finally {
      this.schedule.running.delete(id);
      this.sleepers.scheduler.wake();
    }
  }

  /**
   * A Script operation's run (agent/src/scripts.ts): its record goes to the portal before the
   * operation's result (exit code 0 is a success), whose log says what ran or why it was refused.
   */
  private async runScriptOf(
    operation: AgentOperation,
    parameters: ReadonlyMap<string, string | undefined>,
  ): Promise<OperationResult> {
    const run = await runScript(operation.script, parameters, {
      folder: this.folder,
      policy: this.scripts,
      key: this.scriptKey ?? '',
      installed: this.installer.installed(),
    });
    await this.outbox.append({ kind: 'scriptRun', deviceOperationId: operation.deviceOperationId, run });
    const seconds = (run.durationMs / 1000).toFixed(1);
    let detail: string;
    if (run.refused !== null) detail = `Refused: ${run.refused}`;
    else if (run.timedOut)
      detail = `${operation.script?.fileName ?? 'The script'} was ended by its timeout after ${seconds} s`;
    else
      detail = `${operation.script?.fileName ?? 'The script'} exited with code ${run.exitCode ?? '?'} in ${seconds} s`;
    return { ok: run.refused === null && run.exitCode === 0, value: run.exitCode ?? '', detail, metrics: {} };
  }

  /** A result as the operation's packet (entityId = the device operation) and log entry, then, for a queued run, its completion. */
  private resultItems(operation: AgentOperation, result: OperationResult): OutboxItem[] {
    const now = new Date().toISOString();
    const status = result.ok ? 'Success' : 'Failure';
    const items: OutboxItem[] = [
      {
        kind: 'packet',
        packet: {
          entityId: operation.deviceOperationId,
          timestamp: now,
          message: {
            Value: result.value,
            Properties: {
              BlockName: operation.label,
              OperationName: operation.operationName,
              DeviceId: this.identity.deviceId ?? '',
            },
            Metrics: result.metrics,
            States: { Status: status },
            Diagnostics: { Detail: result.detail.slice(0, 2000) },
          },
        },
      },
      {
        kind: 'operationLog',
        deviceOperationId: operation.deviceOperationId,
        entry: {
          created: now,
          entryType: result.ok ? 'Info' : 'Error',
          detail: `${status}: ${result.detail}`.slice(0, 8000),
        },
      },
    ];
    if (operation.frequencyTypeId === FREQUENCY_TYPES.OnDemand && operation.completionToken) {
      items.push({
        kind: 'complete',
        deviceOperationId: operation.deviceOperationId,
        completionToken: operation.completionToken,
      });
    }
    return items;
  }

  private outboxLoop(generation: number): Promise<void> {
    return this.delivery.run(
      () => this.activeIn(generation),
      (error) => this.refusedCredential(error),
    );
  }
}
