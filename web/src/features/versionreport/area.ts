import AssessmentIcon from '@mui/icons-material/Assessment';
import { view, type WebArea } from '../../lib/area-manifest';

export const versionReportArea: WebArea = {
  pages: [
    {
      path: 'versionreport',
      header: 'Version Report',
      load: () => import('./version-report-page'),
      requires: view('Devices'),
      menu: { group: 'administration', icon: AssessmentIcon },
    },
  ],
};
