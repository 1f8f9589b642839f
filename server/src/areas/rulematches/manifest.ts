import { defineArea } from '../../area.js';
import { ruleMatchRoutes } from './routes.js';

export const ruleMatchesArea = defineArea({
  name: 'rulematches',
  routes: ruleMatchRoutes,
  audited: { ruleMatch: 'Rules' },
  apiTags: { 'Rule matches': "Where a rule's conditions held: for which entity, since when and until when." },
});
