import { defineArea } from '../../area.js';
import { versionReportRoutes } from './routes.js';

export const versionReportArea = defineArea({
  name: 'versionreport',
  routes: versionReportRoutes,
  apiTags: { 'Version report': 'Installed package versions against the Latest, per device.' },
});
