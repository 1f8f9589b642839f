import { LogEntries, useAutoRefresh } from '../../components/log-entries';
import { SideDrawer } from '../../components/side-drawer';
import { useDevice, useDeviceLogs } from './api';

/** Device Logs (`?deviceLogsId=`): newest first, with Refresh and Auto-Refresh (30 sec). */
export default function DeviceLogsDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  const refresh = useAutoRefresh();
  const logs = useDeviceLogs(id, refresh.refetchInterval);
  return (
    <SideDrawer open={id !== null} onClose={onClose} title={`Device Logs${device.data ? `: ${device.data.name}` : ''}`}>
      <LogEntries logs={logs} refresh={refresh} label="Device logs" />
    </SideDrawer>
  );
}
