import KeyIcon from '@mui/icons-material/Key';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const tokensArea: WebArea = {
  pages: [
    {
      path: 'tokens',
      header: 'Tenant Tokens',
      load: () => import('./tokens-page'),
      requires: editAndView('Tokens'),
      menu: { group: 'administration', icon: KeyIcon, label: 'Tokens' },
    },
  ],
};
