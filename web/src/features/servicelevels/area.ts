import AssessmentIcon from '@mui/icons-material/Assessment';
import TimerIcon from '@mui/icons-material/Timer';
import { view, type WebArea } from '../../lib/area-manifest';

export const serviceLevelsArea: WebArea = {
  pages: [
    {
      // Read with ServiceLevels view (operators read them), changed with edit: the page is offered
      // with view, among the settings of the Administration group, as Version Report is with Devices view.
      path: 'servicelevels',
      header: 'Service Levels',
      load: () => import('./service-levels-page'),
      requires: view('ServiceLevels'),
      menu: { group: 'administration', icon: TimerIcon },
    },
    {
      // How each tenant was served in a month: among the pages operators work in, after Compliance.
      path: 'servicelevels/report',
      header: 'Service Level Report',
      load: () => import('./report-page'),
      requires: view('ServiceLevels'),
      menu: { group: 'menu', icon: AssessmentIcon },
    },
  ],
};
