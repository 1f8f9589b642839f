import FactCheckIcon from '@mui/icons-material/FactCheck';
import { view, type WebArea } from '../../lib/area-manifest';

export const complianceArea: WebArea = {
  pages: [
    {
      path: 'compliance',
      header: 'Compliance',
      load: () => import('./compliance-page'),
      requires: view('Compliance'),
      menu: { group: 'menu', icon: FactCheckIcon },
    },
  ],
};
