import BusinessIcon from '@mui/icons-material/Business';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const tenantsArea: WebArea = {
  pages: [
    {
      path: 'tenants',
      header: 'Tenants',
      load: () => import('./tenants-page'),
      requires: editAndView('Tenants'),
      menu: { group: 'administration', icon: BusinessIcon },
    },
  ],
};
