import { defineAccessPolicy } from '../../http/access-policy.js';

export const homeAccess = defineAccessPolicy({
  'GET /v1/home/workunits': 'WorkUnits:view',
  'GET /v1/home/devices': 'Devices:view',
  'GET /v1/home/rulematches': 'Rules:view',
  'GET /v1/home/communications': 'WorkUnitCommunications:view',
  'GET /v1/home/compliance': 'Compliance:view',
});
