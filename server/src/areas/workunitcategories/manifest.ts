import { defineArea } from '../../http/area.js';
import { workUnitCategoryRoutes } from './routes.js';

export const workUnitCategoriesArea = defineArea({
  name: 'workunitcategories',
  routes: workUnitCategoryRoutes,
  audited: { workUnitCategory: 'WorkUnits.Categories', workUnitSubcategory: 'WorkUnits.Subcategories', workUnitType: 'WorkUnits.Types' },
});
