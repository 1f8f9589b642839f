import { view, type WebArea } from '../../lib/area-manifest';

export const packetsArea: WebArea = {
  pages: [
    {
      path: 'packets/:id',
      header: 'Packet',
      load: () => import('./packet-page'),
      requires: view('Packets'),
    },
  ],
};
