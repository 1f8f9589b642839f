import PlaceIcon from '@mui/icons-material/Place';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const locationsArea: WebArea = {
  pages: [
    {
      path: 'locations',
      header: 'Locations',
      load: () => import('./locations-page'),
      requires: editAndView('Locations'),
      menu: { group: 'administration', icon: PlaceIcon },
    },
  ],
};
