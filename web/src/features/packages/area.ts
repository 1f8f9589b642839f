import Inventory2Icon from '@mui/icons-material/Inventory2';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const packagesArea: WebArea = {
  pages: [
    {
      path: 'packages',
      header: 'Package Catalog',
      load: () => import('./packages-page'),
      requires: editAndView('Packages'),
      menu: { group: 'administration', icon: Inventory2Icon },
    },
  ],
};
