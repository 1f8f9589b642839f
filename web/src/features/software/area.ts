import AppsIcon from '@mui/icons-material/Apps';
import { view, type WebArea } from '../../lib/area-manifest';

export const softwareArea: WebArea = {
  pages: [
    {
      path: 'software',
      header: 'Software',
      load: () => import('./software-page'),
      requires: view('Devices'),
      menu: { group: 'menu', icon: AppsIcon },
    },
  ],
};
