import AccountTreeIcon from '@mui/icons-material/AccountTree';
import { editAndView, type WebArea } from '../../lib/area-manifest';

export const protocolsArea: WebArea = {
  pages: [
    {
      path: 'protocols',
      header: 'Work Unit Protocols',
      load: () => import('./protocols-page'),
      requires: editAndView('WorkUnits.Protocols'),
      menu: { group: 'administration', icon: AccountTreeIcon },
    },
  ],
};
