import CampaignIcon from '@mui/icons-material/Campaign';
import { view, type WebArea } from '../../lib/area-manifest';

export const communicationsArea: WebArea = {
  pages: [
    {
      path: 'workunitcommunications',
      header: 'Work Unit Communications',
      load: () => import('./communications-page'),
      requires: view('WorkUnitCommunications'),
      menu: { group: 'menu', icon: CampaignIcon },
    },
  ],
};
