import { defineArea } from '../../area.js';
import { silenceRoutes } from './routes.js';

export const silencesArea = defineArea({
  name: 'silences',
  routes: silenceRoutes,
  audited: { ruleSilence: 'Rules' },
  apiTags: { Silences: 'Times when the matches of some subjects run no action, made ahead or from a match.' },
});
