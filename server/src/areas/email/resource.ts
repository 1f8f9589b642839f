import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/**
 * GET v1/emailOutbox (the Outbox screen, Administration): newest first, as its index reads them
 * (created DESC, email_id DESC; per tenant too). The grid searches subject and recipients.
 */
export const emailOutboxResource = defineResource({
  table: 'email_outbox',
  key: 'emailId',
  fields: {
    emailId: { type: 'integer' },
    tenantId: { type: 'guid' },
    template: { type: 'string' },
    isImportant: { type: 'boolean' },
    to: { type: 'string', column: 'to_addresses' },
    cc: { type: 'string', column: 'cc_addresses' },
    bcc: { type: 'string', column: 'bcc_addresses' },
    subject: { type: 'string' },
    body: { type: 'string', filterable: false, sortable: false },
    workUnitId: { type: 'integer' },
    transport: { type: 'string' },
    sent: { type: 'datetime' },
    error: { type: 'string' },
    created: { type: 'datetime' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'created desc',
});
