import PendingActionsIcon from '@mui/icons-material/PendingActions';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const pendingDevicesArea: WebArea = {
  pages: [
    {
      path: 'pendingdevices',
      header: 'Pending Devices',
      load: () => import('./pending-devices-page'),
      requires: editAndView('Devices', 'PendingDevices'),
      menu: { group: 'administration', icon: PendingActionsIcon },
    },
  ],
};
