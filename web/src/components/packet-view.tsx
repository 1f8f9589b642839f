import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { FLEET_MESSAGES, FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { PACKET_GROUPS, type PacketGroup } from '@cfs/contracts/packets';
import type { JsonOf } from '../lib/json-types';
import { formatDateTime } from '../lib/dates';
import { CopyButton } from './copy-button';
import { DateWithAge } from './date-with-age';
import { usePackets, type Packet } from './use-packets';

type PacketRow = JsonOf<Packet>;

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** "CpuPercent" → "Cpu Percent", "disk_free" → "disk free": names as people read them. */
export function humanizeName(name: string): string {
  return name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim();
}

/** A reported value as text: numbers grouped and to two decimals, booleans as Yes/No, nothing as a dash. */
export function formatPacketValue(value: unknown, name = ''): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return `${numberFormat.format(value)}${/percent$/i.test(name) ? ' %' : ''}`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

const GOOD_STATES = new Set([
  'ok',
  'running',
  'up',
  'healthy',
  'true',
  'online',
  'success',
  'succeeded',
  'active',
  'enabled',
  'connected',
  'pass',
  'passed',
  'installed',
]);
const BAD_STATES = new Set([
  'error',
  'failed',
  'failure',
  'down',
  'stopped',
  'critical',
  'false',
  'offline',
  'fail',
  'unhealthy',
  'disconnected',
  'missing',
]);
const WARNING_STATES = new Set(['warning', 'warn', 'degraded', 'pending', 'starting', 'stopping', 'unknown', 'paused']);

/** The colour of a state's chip: green for the good words, red for the bad, amber for in-between. */
export function stateColor(value: unknown): 'success' | 'error' | 'warning' | 'default' {
  const word = String(value).trim().toLowerCase();
  if (GOOD_STATES.has(word)) return 'success';
  if (BAD_STATES.has(word)) return 'error';
  if (WARNING_STATES.has(word)) return 'warning';
  return 'default';
}

function groupOf(packet: PacketRow, group: PacketGroup): [string, unknown][] {
  const value = packet.message[group];
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
}

function GroupTable({ group, entries }: { group: PacketGroup; entries: [string, unknown][] }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} component="section" aria-label={group}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {group}
      </Typography>
      {entries.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {FLEET_MESSAGES.noData}
        </Typography>
      ) : (
        <Table size="small" aria-label={`${group} values`}>
          <TableBody>
            {entries.map(([name, value]) => (
              <TableRow key={name} sx={{ '&:last-child td, &:last-child th': { borderBottom: 0 } }}>
                <TableCell
                  component="th"
                  scope="row"
                  sx={{ color: 'text.secondary', pl: 0, width: '45%', wordBreak: 'break-word' }}
                >
                  {humanizeName(name)}
                </TableCell>
                <TableCell
                  sx={{
                    pr: 0,
                    wordBreak: 'break-word',
                    ...(group === 'Metrics' ? { textAlign: 'right', fontVariantNumeric: 'tabular-nums' } : {}),
                  }}
                >
                  {group === 'States' ? (
                    <Chip
                      size="small"
                      label={formatPacketValue(value)}
                      color={stateColor(value)}
                      variant={stateColor(value) === 'default' ? 'outlined' : 'filled'}
                    />
                  ) : value !== null && typeof value === 'object' ? (
                    <Box component="code" sx={{ fontSize: '0.75rem', whiteSpace: 'pre-wrap' }}>
                      {JSON.stringify(value, null, 2)}
                    </Box>
                  ) : (
                    formatPacketValue(value, name)
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}

function PacketDetails({
  packet,
  entityId,
  heading,
  action,
}: {
  packet: PacketRow;
  entityId: string;
  heading: string;
  action?: ReactNode;
}) {
  const [raw, setRaw] = useState(false);
  const blockName = packet.message.Properties?.BlockName;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>
          <Typography variant="overline" color="text.secondary">
            {heading}
          </Typography>
          <Typography variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
            {typeof blockName === 'string' && blockName ? blockName : 'Packet'}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5, wordBreak: 'break-all' }}
          >
            Entity Id {entityId}{' '}
            <CopyButton
              text={entityId}
              label="Copy Entity Id"
              copiedMessage={SHELL_MESSAGES.entityIdCopied(entityId)}
            />
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            Reported <DateWithAge value={packet.timestamp} />
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Received {formatDateTime(packet.received)}
          </Typography>
        </Box>
        <Box sx={{ textAlign: 'right' }}>
          <Typography variant="overline" color="text.secondary">
            Value
          </Typography>
          <Typography variant="h4" component="p" data-testid="packet-value" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatPacketValue(packet.message.Value)}
          </Typography>
          {action}
        </Box>
      </Paper>
      <FormControlLabel
        sx={{ alignSelf: 'flex-start', ml: 0 }}
        control={<Switch checked={raw} onChange={(event) => setRaw(event.target.checked)} size="small" />}
        label="Raw JSON"
      />
      {raw ? (
        <Paper
          variant="outlined"
          component="pre"
          sx={{ p: 1.5, m: 0, overflow: 'auto', fontSize: '0.8rem' }}
          aria-label="Raw JSON"
        >
          {JSON.stringify(packet.message, null, 2)}
        </Paper>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 20rem), 1fr))' }}>
          {PACKET_GROUPS.map((group) => (
            <GroupTable key={group} group={group} entries={groupOf(packet, group)} />
          ))}
        </Box>
      )}
    </Box>
  );
}

function HistoryTable({
  rows,
  selected,
  onSelect,
}: {
  rows: PacketRow[];
  selected: PacketRow | null;
  onSelect: (row: PacketRow) => void;
}) {
  const keyOf = (row: PacketRow) => `${row.timestamp}|${JSON.stringify(row.message)}`;
  const selectedKey = selected ? keyOf(selected) : null;
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} component="section" aria-label="History">
      <Typography variant="subtitle2" component="h3">
        History
      </Typography>
      <Table size="small" aria-label="Packet history">
        <TableHead>
          <TableRow>
            <TableCell sx={{ pl: 0 }}>Reported</TableCell>
            <TableCell align="right">Value</TableCell>
            <TableCell>States</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={keyOf(row)}
              hover
              selected={keyOf(row) === selectedKey}
              onClick={() => onSelect(row)}
              sx={{ cursor: 'pointer' }}
            >
              <TableCell sx={{ pl: 0 }}>
                <DateWithAge value={row.timestamp} />
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatPacketValue(row.message.Value)}
              </TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {groupOf(row, 'States').map(([name, value]) => (
                    <Chip
                      key={name}
                      size="small"
                      variant="outlined"
                      color={stateColor(value)}
                      label={`${humanizeName(name)}: ${formatPacketValue(value)}`}
                    />
                  ))}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

export interface PacketViewProps {
  entityId: string;
  /** How often the packet is read again; the packet drawer's 10 s by default (spec 002 §9). */
  refreshMs?: number;
}

/**
 * The packets of one entity (spec 002 §3 Packet): its latest packet — Value, then Properties,
 * Metrics, States and Diagnostics as labelled tables, states as coloured chips, or the raw JSON —
 * and its recent history, where a row shows that packet instead. 'No packet for this entity.'
 * until the entity reports one. Used by the devices screen's Packets drawer, the /packets/{id}
 * page and the blocks screen.
 *
 * @example
 *   <PacketView entityId={device.deviceId} />
 */
export function PacketView({ entityId, refreshMs = FLEET_POLLING_MS.packetDrawer }: PacketViewProps) {
  const { latest, history } = usePackets(entityId, refreshMs);
  const [picked, setPicked] = useState<PacketRow | null>(null);
  if (latest.isPending && latest.fetchStatus !== 'idle') {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress aria-label="Loading packet" />
      </Box>
    );
  }
  if (latest.isError) return <Alert severity="error">The packet could not be loaded.</Alert>;
  const packet = latest.data;
  if (!packet) {
    return (
      <Typography color="text.secondary" sx={{ py: 1 }}>
        {FLEET_MESSAGES.noPacket}
      </Typography>
    );
  }
  const shown = picked ?? packet;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <PacketDetails
        packet={shown}
        entityId={entityId}
        heading={picked ? 'Packet from the history' : 'Latest packet'}
        action={
          picked ? (
            <Button size="small" onClick={() => setPicked(null)}>
              Show latest
            </Button>
          ) : undefined
        }
      />
      {history.data && history.data.value.length > 0 ? (
        <HistoryTable rows={history.data.value} selected={shown} onSelect={setPicked} />
      ) : null}
    </Box>
  );
}
