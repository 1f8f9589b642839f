import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RELEASE_PACKAGE, AGENT_RESTART_EXIT_CODE } from '@cfs/contracts/agent';
import type { AgentUpdatePolicy } from '@cfs/contracts/agent-updates';
import { INSTALL_STATUSES } from '@cfs/contracts/fleet';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { registerAgentRelease } from '../src/areas/packages/agent-release.js';
import { createSubscriptionAs, createTenantAs, createTokenAs, unique } from './factories.js';
import { buildAgentRelease, promoteRealAgent } from './agent-enrolment.js';
import { createListeningPortal, type TestPortal } from './harness.js';
import { until } from './processes.js';
import { multipart } from './upload-helpers.js';

/**
 * The real agent updating itself, kept running by a supervisor that starts it again when it ends,
 * as systemd does: the portal offers a new version of the agent package, the agent takes it,
 * restarts into it (a new process) and reports it; a version that cannot run is given up after
 * three starts, the agent goes back to the version before it, and the rollout halts. `installed`
 * is the installed program's command (the bundle under Node, or the single executable), given the
 * test's folder and the 0.1.0 bundle the portal knows as its own release.
 */
export function agentUpdateSuite(title: string, installed: (folder: string, release: string) => string[]): void {
  let portal: TestPortal & { origin: string };
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-agent-updates-'));
  const dataDir = path.join(folder, 'data');
  let command: string[] = [];
  const output: string[] = [];
  const pids: number[] = [];
  let child: ChildProcess | undefined;
  let stopping = false;
  let tenantId = '';
  let deviceId = '';

  const release = (version: string) =>
    buildAgentRelease(version, path.join(folder, 'releases', version, 'cfs-agent.cjs'));

  /** Starts the installed program, and again whenever it ends (at once for a restart it asked for), as systemd's Restart=always. */
  function supervise(token: string, machineName: string): void {
    const start = () => {
      const [program = '', ...args] = command;
      child = spawn(
        program,
        [...args, 'run', '--portal', portal.origin, '--data', dataDir, '--name', machineName, '--supervised'],
        {
          env: { ...process.env, CFS_AGENT_TOKEN: token, CFS_AGENT_POLL_MS: '200' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      if (child.pid) pids.push(child.pid);
      const keep = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.on('exit', (code) => {
        output.push(`[supervisor] exit ${String(code)}`);
        if (!stopping) setTimeout(start, code === AGENT_RESTART_EXIT_CODE ? 0 : 300);
      });
    };
    start();
  }

  async function upload(version: string, content: Buffer) {
    const pkg = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('package')
      .select('package_id')
      .where('name', '=', AGENT_RELEASE_PACKAGE)
      .where('tenant_id', 'is', null)
      .executeTakeFirstOrThrow();
    const uploaded = await portal.as('admin', {
      method: 'POST',
      url: '/v1/packages/upload',
      ...multipart({ packageId: pkg.package_id, version, label: version }, { fileName: 'cfs-agent.cjs', content }),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    return uploaded.json<{ packageVersionId: string }>().packageVersionId;
  }

  const device = () =>
    scoped(portal.db, ALL_TENANTS)
      .selectFrom('device')
      .select(['device_id', 'agent_version'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();

  const lastUpdate = () =>
    scoped(portal.db, ALL_TENANTS)
      .selectFrom('device_agent_update')
      .selectAll()
      .where('device_id', '=', deviceId)
      .executeTakeFirst();

  const releases = () =>
    JSON.parse(fs.readFileSync(path.join(dataDir, 'releases.json'), 'utf8')) as {
      current?: { version: string };
      trial?: unknown;
    };

  beforeAll(async () => {
    portal = await createListeningPortal();
    tenantId = (await createTenantAs(portal, 'admin')).tenantId;
    const subscription = await createSubscriptionAs(portal, 'admin', tenantId);
    const token = (await createTokenAs(portal, 'admin', tenantId)).generatedToken;
    // The installed program is the agent 0.1.0, which the portal knows as the release it was built with.
    const own = release('0.1.0');
    command = installed(folder, own);
    await registerAgentRelease(portal.db, { ...portal.runtime.config, agentDist: path.dirname(own) });
    const machineName = `updates-${unique()}`;
    supervise(token, machineName);
    await promoteRealAgent(portal, machineName, subscription.subscriptionId, output);
    await until(
      async () => {
        const row = await scoped(portal.db, ALL_TENANTS)
          .selectFrom('device')
          .select(['device_id', 'agent_version'])
          .where('machine_name', '=', machineName)
          .executeTakeFirst();
        deviceId = row?.device_id ?? '';
        return row?.agent_version === '0.1.0';
      },
      `the agent to report its version\n${output.join('\n')}`,
    );
  }, 60_000);

  afterAll(async () => {
    stopping = true;
    child?.kill('SIGTERM');
    await portal?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  describe(title, () => {
    it('takes a new version of the agent package: a new process runs it and reports it', async () => {
      const before = pids.at(-1);
      const next = await upload('0.2.0', fs.readFileSync(release('0.2.0')));
      await until(
        async () => (await device()).agent_version === '0.2.0' && (await lastUpdate())?.outcome === 'Updated',
        `the agent to run 0.2.0\n${output.join('\n')}`,
        60_000,
      );
      expect(pids.at(-1)).not.toBe(before);
      expect(output).toContain(`[supervisor] exit ${AGENT_RESTART_EXIT_CODE}`);
      expect(output.some((line) => line.includes('Running the agent 0.2.0'))).toBe(true);
      expect((await lastUpdate())?.package_version_id).toBe(next);
      await until(() => releases().trial === undefined, 'the trial to be confirmed');
      expect(releases().current?.version).toBe('0.2.0');
      const installation = await scoped(portal.db, ALL_TENANTS)
        .selectFrom('device_installation as i')
        .innerJoin('package_version as v', 'v.package_version_id', 'i.installed_package_version_id')
        .select(['v.version', 'i.install_status_id'])
        .where('i.device_id', '=', deviceId)
        .executeTakeFirstOrThrow();
      expect(installation).toEqual({ version: '0.2.0', install_status_id: INSTALL_STATUSES.Installed });
    }, 90_000);

    it('goes back from a version that cannot run, and the rollout halts', async () => {
      // It tells its version, so it is taken, but it ends at once every time it is started.
      const broken = Buffer.from(
        "if (process.argv.includes('version')) console.log('0.3.0');\nelse { console.error('0.3.0 cannot start'); process.exit(1); }\n",
      );
      const bad = await upload('0.3.0', broken);
      await until(
        async () => (await lastUpdate())?.outcome === 'RolledBack',
        `the agent to go back from 0.3.0\n${output.join('\n')}`,
        60_000,
      );
      expect((await lastUpdate())?.package_version_id).toBe(bad);
      expect((await lastUpdate())?.detail).toContain('it ended 3 times before it reported to the portal');
      expect(output.filter((line) => line.includes('0.3.0 cannot start'))).toHaveLength(3);
      await until(async () => (await device()).agent_version === '0.2.0', 'the agent to run 0.2.0 again');
      expect(releases().current?.version).toBe('0.2.0');
      const policy = await portal.as('admin', { method: 'GET', url: `/v1/agentUpdatePolicies/${tenantId}` });
      expect(policy.json<AgentUpdatePolicy>().target).toMatchObject({ version: '0.3.0', failed: 1, running: 0 });
      expect(policy.json<AgentUpdatePolicy>().target?.haltedReason).toContain('A device went back from it');
      // The agent stays on 0.2.0: the halted version is offered no more.
      const settled = pids.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(pids.length, output.join('\n')).toBe(settled);
    }, 90_000);
  });
}
