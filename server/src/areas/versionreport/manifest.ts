import { defineArea } from '../../http/area.js';
import { versionReportAccess } from './access-policy.js';
import { versionReportRoutes } from './routes.js';

export const versionReportArea = defineArea({
  name: 'versionreport',
  routes: versionReportRoutes,
  access: versionReportAccess,
});
