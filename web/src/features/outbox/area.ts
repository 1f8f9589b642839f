import OutboxIcon from '@mui/icons-material/Outbox';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const outboxArea: WebArea = {
  // Not in the spec's menu: every email the portal sent or kept (DESIGN: email). Settings is held by administrators only.
  pages: [
    {
      path: 'outbox',
      header: 'Outbox',
      load: () => import('./outbox-page'),
      requires: editAndView('Settings'),
      menu: { group: 'administration', icon: OutboxIcon },
    },
  ],
};
