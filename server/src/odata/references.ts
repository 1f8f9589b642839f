import { defineResource } from './resource.js';

/**
 * Small resources that many areas expand (`$expand=tenant`, `$expand=workUnitType`): the names
 * a grid shows beside an id. An area's own full resource stays in the area.
 */
export const tenantReference = defineResource({
  table: 'tenant',
  key: 'tenantId',
  fields: {
    tenantId: { type: 'guid' },
    name: { type: 'string' },
    internalNotificationEmailAddress: { type: 'string' },
  },
});

export const subscriptionReference = defineResource({
  table: 'subscription',
  key: 'subscriptionId',
  fields: { subscriptionId: { type: 'guid' }, tenantId: { type: 'guid' }, name: { type: 'string' } },
});

export const workUnitTypeReference = defineResource({
  table: 'work_unit_type',
  key: 'workUnitTypeId',
  fields: { workUnitTypeId: { type: 'integer' }, name: { type: 'string' }, enabled: { type: 'boolean' } },
});
