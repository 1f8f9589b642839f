import { useState } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FactList, FactRows } from '../../components/fact-list';
import { SideDrawer } from '../../components/side-drawer';
import { SimpleTable, type SimpleColumn } from '../../components/simple-table';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/dates';
import { useDevice, useDeviceInventory, type DeviceInventory } from './api';

const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

const CHANGE_LABELS = { added: 'Added', removed: 'Removed', changed: 'Changed' } as const;

const SOFTWARE_COLUMNS: readonly SimpleColumn<DeviceInventory['software'][number]>[] = [
  { header: 'Name', cell: (item) => item.name },
  { header: 'Version', cell: (item) => item.version },
  { header: 'Publisher', cell: (item) => item.publisher ?? '' },
];

const CHANGE_COLUMNS: readonly SimpleColumn<DeviceInventory['changes'][number]>[] = [
  { header: 'When', cell: (change) => formatDateTime(change.at) },
  { header: 'Name', cell: (change) => change.name },
  { header: 'Change', cell: (change) => CHANGE_LABELS[change.change] },
  { header: 'From', cell: (change) => change.from ?? '' },
  { header: 'To', cell: (change) => change.to ?? '' },
];

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
      {inventory.isError && (
        <Typography color="text.secondary">
          {inventory.error instanceof ApiError && inventory.error.status === 404
            ? 'This device does not exist.'
            : inventory.error.message}
        </Typography>
      )}
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
      <FactList>
        <FactRows
          rows={[
            ['Operating System', [os.name, os.version, os.build].filter(Boolean).join(' ')],
            ['Pending Patches', os.pendingPatches ?? 'Not told by the system'],
            ['Processor', `${hardware.cpuModel} (${hardware.cores} cores)`],
            ['Memory', gigabytes(hardware.memoryBytes)],
            [
              'Disks',
              hardware.disks.length === 0
                ? 'None reported'
                : hardware.disks.map((disk) => `${disk.name} (${gigabytes(disk.sizeBytes)})`).join(', '),
            ],
          ]}
        />
      </FactList>
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
        {software.length === 0 && term ? (
          <Typography color="text.secondary">No software matches “{search.trim()}”.</Typography>
        ) : (
          <SimpleTable label="Software" columns={SOFTWARE_COLUMNS} rows={software} rowKey={(item) => item.name} />
        )}
      </Box>
      <Box>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Changes
        </Typography>
        {inventory.changes.length === 0 ? (
          <Typography color="text.secondary">Nothing has changed since the first report.</Typography>
        ) : (
          <SimpleTable
            label="Inventory changes"
            columns={CHANGE_COLUMNS}
            rows={inventory.changes}
            rowKey={(change, index) => `${change.at}-${change.item}-${change.name}-${index}`}
          />
        )}
      </Box>
    </Box>
  );
}
