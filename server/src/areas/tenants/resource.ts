import { defineResource } from '../../odata/resource.js';

/** GET v1/tenants: what the tenants grid lists, filters and sorts. */
export const tenantsResource = defineResource({
  table: 'tenant',
  key: 'tenantId',
  fields: {
    tenantId: { type: 'guid' },
    name: { type: 'string' },
    internalNotificationEmailAddress: { type: 'string' },
    enabled: { type: 'boolean' },
    assignmentGroups: { type: 'string' },
    versionPolicyDays: { type: 'integer' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  defaultOrderBy: 'name asc',
});
