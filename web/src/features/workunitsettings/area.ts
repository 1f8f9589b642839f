import CategoryIcon from '@mui/icons-material/Category';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const workUnitSettingsArea: WebArea = {
  pages: [
    {
      path: 'workunitsettings',
      header: 'Work Unit Settings',
      load: () => import('./work-unit-settings-page'),
      requires: editAndView('WorkUnits.Categories', 'WorkUnits.Subcategories'),
      menu: { group: 'administration', icon: CategoryIcon },
    },
  ],
};
