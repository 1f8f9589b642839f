import { defineAccessPolicy } from '../../http/access-policy.js';

export const agentAccess = defineAccessPolicy({
  'POST /v1/agent/enrol': { machine: ['token'] },
  'GET /v1/agent/configuration': { machine: ['device'] },
  'POST /v1/agent/restart/acknowledge': { machine: ['device'] },
  'POST /v1/agent/logs': { machine: ['device'] },
  'POST /v1/agent/operations/:deviceOperationId/logs': { machine: ['device'] },
  'POST /v1/agent/operations/:deviceOperationId/complete': { machine: ['device'] },
  'POST /v1/agent/installations/:packageId': { machine: ['device'] },
  'GET /v1/agent/packageversions/:packageVersionId/download': { machine: ['device'] },
  'GET /downloads/agent/:file': 'public',
});
