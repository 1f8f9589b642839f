import { useState } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SideDrawer } from '../../components/side-drawer';
import { formatDateTime } from '../../lib/dates';
import { useDevice, useDeviceInventory, type DeviceInventory } from './api';

const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

const CHANGE_LABELS = { added: 'Added', removed: 'Removed', changed: 'Changed' } as const;

/** Device Inventory (`?deviceInventoryId=`, 75% wide): what the agent last reported of its machine, and what changed. */
export default function DeviceInventoryDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  const inventory = useDeviceInventory(id);
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      width="75vw"
      title={`Device Inventory${device.data ? `: ${device.data.name}` : ''}`}
    >
      {inventory.isPending && id !== null && <LinearProgress />}
      {inventory.data && <InventoryView inventory={inventory.data} />}
    </SideDrawer>
  );
}

function InventoryView({ inventory }: { inventory: DeviceInventory }) {
  const [search, setSearch] = useState('');
  if (!inventory.reported || !inventory.hardware || !inventory.os)
    return <Typography color="text.secondary">The agent has not reported this device’s inventory yet.</Typography>;
  const term = search.trim().toLowerCase();
  const software = term
    ? inventory.software.filter((item) => `${item.name} ${item.publisher ?? ''}`.toLowerCase().includes(term))
    : inventory.software;
  const { hardware, os } = inventory;
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography variant="body2" color="text.secondary">
        Reported {formatDateTime(inventory.reported)}; last changed{' '}
        {formatDateTime(inventory.changed ?? inventory.reported)}.
      </Typography>
      <Table size="small" aria-label="System">
        <TableBody>
          <TableRow>
            <TableCell component="th">Operating System</TableCell>
            <TableCell>{[os.name, os.version, os.build].filter(Boolean).join(' ')}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th">Pending Patches</TableCell>
            <TableCell>{os.pendingPatches ?? 'Not told by the system'}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th">Processor</TableCell>
            <TableCell>{`${hardware.cpuModel} (${hardware.cores} cores)`}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th">Memory</TableCell>
            <TableCell>{gigabytes(hardware.memoryBytes)}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th">Disks</TableCell>
            <TableCell>
              {hardware.disks.length === 0
                ? 'None reported'
                : hardware.disks.map((disk) => `${disk.name} (${gigabytes(disk.sizeBytes)})`).join(', ')}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      <Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
          <Typography variant="h6" component="h2">
            Software ({inventory.software.length})
          </Typography>
          <TextField
            size="small"
            label="Search Software"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </Box>
        <Table size="small" aria-label="Software">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Version</TableCell>
              <TableCell>Publisher</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {software.map((item) => (
              <TableRow key={item.name}>
                <TableCell>{item.name}</TableCell>
                <TableCell>{item.version}</TableCell>
                <TableCell>{item.publisher ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Box>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Changes
        </Typography>
        {inventory.changes.length === 0 ? (
          <Typography color="text.secondary">Nothing has changed since the first report.</Typography>
        ) : (
          <Table size="small" aria-label="Inventory changes">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Name</TableCell>
                <TableCell>Change</TableCell>
                <TableCell>From</TableCell>
                <TableCell>To</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {inventory.changes.map((change, index) => (
                <TableRow key={`${change.at}-${change.item}-${change.name}-${index}`}>
                  <TableCell>{formatDateTime(change.at)}</TableCell>
                  <TableCell>{change.name}</TableCell>
                  <TableCell>{CHANGE_LABELS[change.change]}</TableCell>
                  <TableCell>{change.from ?? ''}</TableCell>
                  <TableCell>{change.to ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Box>
    </Box>
  );
}
