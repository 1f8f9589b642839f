import DevicesIcon from '@mui/icons-material/Devices';
import { view, type WebArea } from '../../lib/area-manifest';

export const devicesArea: WebArea = {
  pages: [
    {
      path: 'devices',
      header: 'Devices',
      load: () => import('./devices-page'),
      requires: view('Devices'),
      menu: { group: 'menu', icon: DevicesIcon },
    },
  ],
};
