import { PROBE_SECRETS, stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'POST /v1/agent/enrol': { machine: ['token'] },
    'GET /v1/agent/configuration': { machine: ['device'] },
    'POST /v1/agent/restart/acknowledge': { machine: ['device'] },
    'POST /v1/agent/logs': { machine: ['device'] },
    'POST /v1/agent/inventory': { machine: ['device'] },
    'GET /v1/devices/:id/inventory': 'Devices:view',
    'POST /v1/agent/operations/:deviceOperationId/logs': { machine: ['device'] },
    'POST /v1/agent/operations/:deviceOperationId/complete': { machine: ['device'] },
    'POST /v1/agent/operations/:deviceOperationId/scriptruns': { machine: ['device'] },
    'POST /v1/agent/installations/:packageId': { machine: ['device'] },
    'POST /v1/agent/version': { machine: ['device'] },
    'GET /v1/agentUpdatePolicies/:tenantId': 'Devices:view',
    'PUT /v1/agentUpdatePolicies/:tenantId': 'Devices.Scripts:edit',
    'POST /v1/agentUpdatePolicies/:tenantId/resume': 'Devices.Scripts:edit',
    'GET /v1/agent/packageversions/:packageVersionId/download': { machine: ['device'] },
    'GET /downloads/agent/:file': 'public',
  },
  bodies: {
    'POST /v1/agent/enrol': () => ({
      agentKey: PROBE_SECRETS.agentKey(),
      machineName: `PROBE-${stamp()}`,
      operatingSystem: 'linux',
      architecture: 'x64',
      agentVersion: '0.1.0',
    }),
    'POST /v1/agent/restart/acknowledge': () => undefined,
    'POST /v1/agent/logs': () => ({ entries: [{ entryType: 'Information', detail: 'probed' }] }),
    'POST /v1/agent/inventory': () => ({
      hardware: { cpuModel: 'Probe CPU', cores: 2, memoryBytes: 1024, disks: [] },
      os: { name: 'Probe OS', version: '1', build: '', pendingPatches: null },
      software: [{ name: 'probe', version: '1.0.0', publisher: null }],
    }),
    'POST /v1/agent/operations/:deviceOperationId/logs': () => ({
      entries: [{ entryType: 'Information', detail: 'probed' }],
    }),
    'POST /v1/agent/operations/:deviceOperationId/complete': (o) => ({ completionToken: o.agentCompletionToken }),
    'POST /v1/agent/operations/:deviceOperationId/scriptruns': () => ({
      started: new Date().toISOString(),
      durationMs: 5,
      sha256: null,
      exitCode: null,
      timedOut: false,
      refused: 'probed',
      stdout: '',
      stderr: '',
      truncated: false,
    }),
    'POST /v1/agent/version': () => ({ agentVersion: '0.1.0' }),
    'PUT /v1/agentUpdatePolicies/:tenantId': () => ({ version: null, rolloutPercent: 50, rollbackMinutes: 10 }),
    'POST /v1/agentUpdatePolicies/:tenantId/resume': () => undefined,
    'POST /v1/agent/installations/:packageId': (o) => ({
      packageVersionId: o.agentPackageVersionId,
      status: 'Installed',
    }),
  },
  notTenantBound: [
    'POST /v1/agent/enrol',
    'POST /v1/agent/logs',
    'POST /v1/agent/inventory',
    'POST /v1/agent/restart/acknowledge',
    'POST /v1/agent/version',
  ],
};
