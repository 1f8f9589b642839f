import { defineArea } from '../../http/area.js';
import { workUnitCategoriesAccess } from './access-policy.js';
import { workUnitCategoryRoutes } from './routes.js';

export const workUnitCategoriesArea = defineArea({
  name: 'workunitcategories',
  routes: workUnitCategoryRoutes,
  access: workUnitCategoriesAccess,
  audited: { workUnitCategory: 'WorkUnits.Categories', workUnitSubcategory: 'WorkUnits.Subcategories', workUnitType: 'WorkUnits.Types' },
});
