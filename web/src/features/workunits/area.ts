import AssignmentIcon from '@mui/icons-material/Assignment';
import { view, type WebArea } from '../../lib/area-manifest';

export const workUnitsArea: WebArea = {
  pages: [
    {
      path: 'workunitsv2',
      header: 'Work Units',
      load: () => import('./work-units-page'),
      requires: view('WorkUnits'),
      menu: { group: 'menu', icon: AssignmentIcon },
      // Work Units also answers without a tenant, at /workunitsv2 (spec 000 §2).
      withoutTenant: true,
    },
    {
      path: 'workunits/index',
      header: 'Work Units (old experience)',
      load: () => import('./classic-work-units-page'),
      requires: view('WorkUnits'),
    },
  ],
};
