import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { defineArea } from '../../http/area.js';
import { emailAccess } from './access-policy.js';
import { emailRoutes } from './routes.js';
import { sendEmailAction } from './send-email-action.js';

export const emailArea = defineArea({
  name: 'email',
  routes: emailRoutes,
  access: emailAccess,
  builtInActions: { [BUILT_IN_ACTIONS.sendEmail.id]: sendEmailAction },
});
