import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_RESTART_EXIT_CODE } from '@cfs/contracts/agent';
import { FREQUENCY_TYPES, OPERATING_SYSTEMS } from '@cfs/contracts/fleet';
import { recordAudit } from '../../audit/audit.js';
import { generateApiToken, hashToken } from '../../auth/api-tokens.js';
import { hashCredential } from '../../auth/machine-callers.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { DEMO } from '../../db/demo-ids.js';
import { fleetWriters } from '../../engines/fleet/owner-ports.js';
import { claimEntities, recordCreatedEntities } from '../../engines/ingestion/entity-owners.js';

/**
 * The demo's own agent: in demo mode `npm start` runs one agent beside the portal, enrolled and
 * promoted into Contoso's first subscription, with a Metric operation and an Availability check
 * of the portal itself, so the Devices screen and its packets are alive on first start.
 * DEMO_AGENT=false turns it off.
 *
 * Its data folder is DATA_DIR/demo-agent. The folder holds the agent's key (identity.json, in the
 * agent's own format) and the raw tenant token it enrols with (token, readable by this user
 * only): the portal keeps only their hashes. Made once; what a person changes afterwards (the
 * device's operations, a revoked token, a deleted device) is left as they made it.
 */
const DEMO_AGENT_FOLDER = 'demo-agent';
const CONTOSO = { kind: 'some', tenantIds: [DEMO.contoso] } as const;
/** The shortest interval an operation may have (spec 002 §9), so the demo's packets move. */
const DEMO_INTERVAL_SECONDS = 30;

function writeSecret(file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/**
 * Makes, once, the demo agent's key, its Contoso token and its device with the two operations.
 * Returns what the agent process needs, or undefined when Contoso is not there (a portal that was
 * not seeded with the demo tenants).
 */
export async function prepareDemoAgent(
  db: Db,
  config: Config,
): Promise<{ dataDir: string; token: string } | undefined> {
  const dataDir = path.join(config.dataDir, DEMO_AGENT_FOLDER);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const identityFile = path.join(dataDir, 'identity.json');
  const tokenFile = path.join(dataDir, 'token');
  if (!fs.existsSync(identityFile))
    writeSecret(identityFile, `${JSON.stringify({ agentKey: randomBytes(32).toString('base64url') }, null, 2)}\n`);
  const { agentKey } = JSON.parse(fs.readFileSync(identityFile, 'utf8')) as { agentKey: string };

  const { tokens, devices, packages, deviceOperations } = fleetWriters();
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, CONTOSO);
    const subscription = await tx
      .selectFrom('subscription')
      .select('subscription_id')
      .where('tenant_id', '=', DEMO.contoso)
      .orderBy('created')
      .orderBy('name')
      .executeTakeFirst();
    if (!subscription) return undefined;

    let tokenGrantId: string | null = null;
    if (!fs.existsSync(tokenFile)) {
      const { token, hash, prefix } = generateApiToken();
      tokenGrantId = await tokens.create(trx, CONTOSO, {
        tenant_id: DEMO.contoso,
        name: 'Demo agent',
        description: 'Enrols the demo agent that runs beside the portal',
        lifetime_years: 0,
        token_hash: hash,
        token_prefix: prefix,
        created_by: 'seed',
        modified_by: 'seed',
      });
      await recordAudit(trx, 'system', {
        entityType: 'tokenGrant',
        entityId: tokenGrantId,
        tenantId: DEMO.contoso,
        action: 'create',
        changes: { name: 'Demo agent' },
      });
      writeSecret(tokenFile, token);
    }
    const token = fs.readFileSync(tokenFile, 'utf8').trim();

    const keyHash = hashCredential(agentKey);
    const device = await tx
      .selectFrom('device')
      .select('device_id')
      .where('agent_key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!device) {
      tokenGrantId ??=
        (
          await tx
            .selectFrom('token_grant')
            .select('token_grant_id')
            .where('token_hash', '=', hashToken(token))
            .executeTakeFirst()
        )?.token_grant_id ?? null;
      // The demo's fixed ids, which its blocks name; fresh ids when an earlier demo agent (another data
      // folder) holds them, or another tenant owns one of them.
      const taken =
        (await tx
          .selectFrom('device')
          .select('device_id')
          .where('device_id', '=', DEMO.demoAgentDevice)
          .executeTakeFirst()) !== undefined ||
        (await claimEntities(trx, DEMO.contoso, [DEMO.demoAgentDevice, DEMO.demoAgentCpu, DEMO.demoAgentHealth]))
          .length > 0;
      const [created] = await devices.create(trx, CONTOSO, [
        {
          ...(taken ? {} : { device_id: DEMO.demoAgentDevice }),
          tenant_id: DEMO.contoso,
          subscription_id: subscription.subscription_id,
          name: `Demo agent (${os.hostname()})`,
          description: 'The agent that runs beside the portal in demo mode',
          machine_name: os.hostname(),
          operating_system_id:
            process.platform === 'win32'
              ? OPERATING_SYSTEMS.WinX64
              : process.platform === 'linux'
                ? OPERATING_SYSTEMS.LinuxX64
                : OPERATING_SYSTEMS.Unknown,
          architecture: process.arch,
          heartbeat_interval: DEMO_INTERVAL_SECONDS,
          agent_key_hash: keyHash,
          token_grant_id: tokenGrantId,
          created_by: 'seed',
          modified_by: 'seed',
        },
      ]);
      if (!created) throw new Error('The demo agent device was not created.');
      const [metric, availability] = [
        await packages.catalogueOperation(trx, 'Metric'),
        await packages.catalogueOperation(trx, 'Availability'),
      ];
      const operations = await deviceOperations.create(trx, CONTOSO, [
        {
          ...(taken ? {} : { device_operation_id: DEMO.demoAgentCpu }),
          tenant_id: DEMO.contoso,
          device_id: created.device_id,
          operation_id: metric,
          label: 'CPU',
          frequency_type_id: FREQUENCY_TYPES.Recurring,
          interval_seconds: DEMO_INTERVAL_SECONDS,
          parameters: JSON.stringify([{ Name: 'Metric', Source: 'PortalEntry', Value: 'Cpu' }]),
          created_by: 'seed',
          modified_by: 'seed',
        },
        {
          ...(taken ? {} : { device_operation_id: DEMO.demoAgentHealth }),
          tenant_id: DEMO.contoso,
          device_id: created.device_id,
          operation_id: availability,
          label: 'Portal health',
          frequency_type_id: FREQUENCY_TYPES.Recurring,
          interval_seconds: DEMO_INTERVAL_SECONDS,
          parameters: JSON.stringify([
            { Name: 'Url', Source: 'PortalEntry', Value: `${config.publicUrl}/healthz` },
            { Name: 'Method', Source: 'PortalEntry', Value: 'GET' },
          ]),
          created_by: 'seed',
          modified_by: 'seed',
        },
      ]);
      await recordCreatedEntities(trx, DEMO.contoso, [created.device_id, ...operations]);
      await recordAudit(trx, 'system', {
        entityType: 'device',
        entityId: created.device_id,
        tenantId: DEMO.contoso,
        action: 'create',
        changes: { name: `Demo agent (${os.hostname()})` },
      });
    }
    return { dataDir, token };
  });
}

/** The command that runs the agent as `npm run build` bundles it (agent/dist/cfs-agent.cjs): this Node and the bundle. */
export function agentCommand(config: Config): readonly [string, ...string[]] | undefined {
  const bundle = path.join(config.agentDist, 'cfs-agent.cjs');
  return fs.existsSync(bundle) ? [process.execPath, bundle] : undefined;
}

/**
 * Starts the demo agent and keeps it running as a service manager would: started again at once
 * when it ends for a restart the portal asked for (a new process), 10 s after a crash, and left
 * stopped once the portal refused it (exit code 3: its token was revoked, its device disabled). Returns the stop.
 * The agent holds a channel to this process and stops when it closes, so a portal killed outright
 * leaves no agent running beside the next one.
 */
export function runDemoAgent(
  command: readonly [string, ...string[]],
  options: { server: string; token: string; dataDir: string; log: (line: string) => void },
): () => Promise<void> {
  let child: ChildProcess | undefined;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  const start = () => {
    // The token goes through the environment, not the command line that every user of the machine can list.
    const [program, ...args] = command;
    // The demo agent runs as the portal's user, its data folder inside DATA_DIR, beside the portal's
    // keys and database cluster. It reads only its own folder (minus its secrets) and runs no
    // script: a read or script allow list set for some other agent in the portal's environment is
    // not handed down to it, and nothing in the portal can widen them (the agent decides,
    // agent/src/read-allow.ts, agent/src/scripts.ts).
    const {
      CFS_AGENT_READ_ALLOW: _noReadsForTheDemoAgent,
      CFS_AGENT_SCRIPT_ALLOW: _noScriptsForTheDemoAgent,
      ...environment
    } = process.env;
    child = spawn(program, [...args, 'run', '--portal', options.server, '--data', options.dataDir], {
      env: { ...environment, CFS_AGENT_TOKEN: options.token },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    options.log(`[demo agent] started (pid ${child.pid ?? 'unknown'})`);
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) options.log(`[demo agent] ${line}`);
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    child.on('exit', (code) => {
      child = undefined;
      if (stopping || code === 0 || code === 3) return;
      // Asked by the portal to restart, it is started again at once; after a crash, in 10 s.
      restartTimer = setTimeout(start, code === AGENT_RESTART_EXIT_CODE ? 0 : 10_000);
    });
  };
  start();
  return async () => {
    stopping = true;
    clearTimeout(restartTimer);
    const running = child;
    if (!running) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => running.kill('SIGKILL'), 5000);
      running.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      running.kill('SIGTERM');
    });
  };
}
