import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { BLOCK_MESSAGES } from '@cfs/contracts/blocks';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { usePermissions } from '../../auth/session-data';
import { formatDateTime } from '../../lib/dates';
import { PageHeader } from '../../lib/page-header';
import { useNow } from '../../lib/use-now';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam } from '../../lib/url-state';
import { useBlocks, useLatestPackets, useTileMatchStates } from './api';
import { BlockTile } from './block-tile';

// The drawer's code (its form, the chart) loads when a block is first opened: the tiles paint without it.
const BlockDrawer = lazyWhenOpened(
  () => import('./block-drawer'),
  (props) => props.id !== null,
);

/**
 * Blocks (spec 002 §2, route /{tenantId}/blocks): a tile per block of the tenant with its entity's
 * latest Value, refreshed every 10 s (§9), a Create button and a Last updated stamp. The open
 * block is `?blockId=` and its tab `&tab=`.
 */
export default function BlocksPage() {
  const tenantId = useTenantId();
  const drawer = useDrawerParam('blockId', { clear: ['tab'] });
  const blocks = useBlocks(tenantId);
  const rows = blocks.data?.rows ?? [];
  const packets = useLatestPackets(rows.map((block) => block.blockId));
  const permissions = usePermissions();
  const canCreate = permissions.has('Blocks', 'create');
  const clock = useNow();
  const now = Math.max(clock, packets.dataUpdatedAt);
  const matchStates = useTileMatchStates(tenantId, permissions.has('Rules', 'view'), clock);
  const updated = Math.max(blocks.dataUpdatedAt, packets.dataUpdatedAt);
  return (
    <>
      <PageHeader
        title="Blocks"
        actions={
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            {updated > 0 && (
              <Typography variant="body2" color="text.secondary" data-testid="blocks-last-updated">
                Last updated {formatDateTime(updated)}
              </Typography>
            )}
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => drawer.open('new')}>
                Create
              </Button>
            )}
          </Box>
        }
      />
      {blocks.isPending && blocks.fetchStatus !== 'idle' && <LinearProgress aria-label="Loading blocks" />}
      {blocks.isError && <Alert severity="error">The blocks could not be loaded.</Alert>}
      {blocks.data && rows.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {BLOCK_MESSAGES.noBlocks}
        </Typography>
      )}
      {rows.length > 0 && (
        <Box
          component="section"
          aria-label="Blocks"
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 13rem), 1fr))',
            gridAutoRows: 'minmax(9rem, auto)',
          }}
        >
          {rows.map((block) => (
            <BlockTile
              key={block.blockId}
              block={block}
              packet={packets.data?.get(block.blockId.toLowerCase())}
              matches={matchStates.data?.get(block.blockId.toLowerCase())}
              packetsLoaded={packets.data !== undefined || packets.isError}
              now={now}
              href={drawer.href(block.blockId)}
              onOpen={() => drawer.open(block.blockId)}
            />
          ))}
        </Box>
      )}
      <BlockDrawer id={drawer.openId} onClose={drawer.close} onCreated={(id) => drawer.open(id, { replace: true })} />
    </>
  );
}
