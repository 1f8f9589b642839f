import { defineArea } from '../../area.js';
import { notificationPolicyRoutes } from './routes.js';

export const notificationPolicyArea = defineArea({
  name: 'notificationpolicy',
  routes: notificationPolicyRoutes,
  audited: { notificationPolicy: 'Rules' },
  apiTags: {
    'Notification policy': "How often an open match's notifications repeat until someone acknowledges it.",
  },
});
