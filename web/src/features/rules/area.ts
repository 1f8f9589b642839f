import RuleIcon from '@mui/icons-material/Rule';
import { view, type WebArea } from '../../lib/area-manifest';

export const rulesArea: WebArea = {
  pages: [
    {
      path: 'rules',
      header: 'Rules',
      load: () => import('./rules-page'),
      requires: view('Rules'),
      menu: { group: 'menu', icon: RuleIcon },
    },
  ],
};
