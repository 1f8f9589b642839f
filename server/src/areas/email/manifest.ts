import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { defineArea } from '../../area.js';
import { emailRoutes } from './routes.js';
import { sendEmailAction } from './send-email-action.js';

export const emailArea = defineArea({
  name: 'email',
  routes: emailRoutes,
  apiTags: { Email: 'Email templates rendered for a work unit, and the Outbox of queued and sent email.' },
  builtInActions: { [BUILT_IN_ACTIONS.sendEmail.id]: sendEmailAction },
});
