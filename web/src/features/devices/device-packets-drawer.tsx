import { PacketView } from '../../components/packet-view';
import { SideDrawer } from '../../components/side-drawer';
import { useDevice } from './api';

/** Packets of the device (`?devicePacketsId=`): the shared packets view of the entity. */
export default function DevicePacketsDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  return (
    <SideDrawer open={id !== null} onClose={onClose} title={`Packets${device.data ? `: ${device.data.name}` : ''}`}>
      {id !== null && <PacketView entityId={id} />}
    </SideDrawer>
  );
}
