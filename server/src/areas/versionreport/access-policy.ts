import { defineAccessPolicy } from '../../http/access-policy.js';

export const versionReportAccess = defineAccessPolicy({
  'GET /v1/compliancereport': 'Devices:view',
  'GET /v1/compliancereport/Export': 'Devices:view',
  'POST /v1/compliancereport/Export': 'Devices:view',
});
