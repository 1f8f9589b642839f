import ViewModuleIcon from '@mui/icons-material/ViewModule';
import { view, type WebArea } from '../../lib/area-manifest';

export const blocksArea: WebArea = {
  pages: [
    {
      path: 'blocks',
      header: 'Blocks',
      load: () => import('./blocks-page'),
      requires: view('Blocks'),
      menu: { group: 'menu', icon: ViewModuleIcon },
    },
  ],
};
