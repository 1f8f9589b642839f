import { defineAccessPolicy } from '../../http/access-policy.js';

export const packetsAccess = defineAccessPolicy({
  'GET /v1/packets': 'Packets:view',
  'GET /v1/packets/Export': 'Packets:view',
  'POST /v1/packets': { machine: ['device', 'token'] },
  'GET /v1/packets/:entityId/history': 'Packets:view',
  'GET /v1/packets/:entityId/series': 'Packets:view',
  'GET /v1/packets/:entityId/logs': 'Packets:view',
});
