import BoltIcon from '@mui/icons-material/Bolt';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const actionDefinitionsArea: WebArea = {
  pages: [
    {
      path: 'actioncatalog',
      header: 'Action Catalog',
      load: () => import('./action-catalog-page'),
      requires: editAndView('ActionDefinitions'),
      menu: { group: 'administration', icon: BoltIcon },
    },
  ],
};
