import { useState } from 'react';
import { PacketTabs, type EntityTab } from '../../components/packet-tabs';
import { SideDrawer } from '../../components/side-drawer';
import { useDevice } from './api';

/** Packets of the device (`?devicePacketsId=`): the Packet drawer's tabs for the device's entity (spec 002 §2). */
export default function DevicePacketsDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  const [tab, setTab] = useState<EntityTab>('details');
  return (
    <SideDrawer open={id !== null} onClose={onClose} title={`Packets${device.data ? `: ${device.data.name}` : ''}`}>
      {id !== null && <PacketTabs key={id} entityId={id} tab={tab} onTabChange={setTab} />}
    </SideDrawer>
  );
}
