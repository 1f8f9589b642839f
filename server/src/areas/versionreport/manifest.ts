import { defineArea } from '../../http/area.js';
import { versionReportRoutes } from './routes.js';

export const versionReportArea = defineArea({
  name: 'versionreport',
  routes: versionReportRoutes,
});
