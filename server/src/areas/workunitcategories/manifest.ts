import { defineArea } from '../../area.js';
import { workUnitCategoryRoutes } from './routes.js';

export const workUnitCategoriesArea = defineArea({
  name: 'workunitcategories',
  routes: workUnitCategoryRoutes,
  apiTags: { 'Work unit settings': 'The categories, subcategories and types that classify work units.' },
  audited: {
    workUnitCategory: 'WorkUnits.Categories',
    workUnitSubcategory: 'WorkUnits.Subcategories',
    workUnitType: 'WorkUnits.Types',
  },
});
