import { defineArea } from '../../area.js';
import { serviceLevelEventsTask, serviceLevelSweepTask } from '../../engines/servicelevels/timers.js';
import { serviceLevelRoutes } from './routes.js';

export const serviceLevelsArea = defineArea({
  name: 'servicelevels',
  routes: serviceLevelRoutes,
  apiTags: {
    'Service levels':
      "Response and resolution targets per work unit type and severity, the calendar they count in, and each unit's clocks.",
  },
  audited: { serviceLevels: 'ServiceLevels' },
  tasks: [serviceLevelEventsTask, serviceLevelSweepTask],
});
