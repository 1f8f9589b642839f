import { useState } from 'react';
import Box from '@mui/material/Box';
import type { GridColDef } from '@mui/x-data-grid';
import BlockIcon from '@mui/icons-material/Block';
import EditIcon from '@mui/icons-material/Edit';
import { TOKEN_MESSAGES } from '@cfs/contracts/tokens';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { actionsColumn, browserColumn, dateTimeColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import { useTenantName } from '../../lib/lookups';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { TOKENS_PATH, useRevokeToken, type GeneratedToken, type TokenGrant } from './api';
import { grantStatus, TokenStatusChip } from './token-status-chip';

// The drawer and its form load when first opened.
const TokenDrawer = lazyWhenOpened(
  () => import('./token-drawer'),
  (props) => props.id !== null,
);

/** Tenant Tokens (spec 001 §2): the route's tenant's API tokens, newest first; `?tokenGrantId=`. */
export default function TokensPage() {
  const tenantId = useTenantId();
  // A user who may use several tenants reaches any one's tokens by its address: the page says whose.
  const tenantName = useTenantName(tenantId);
  const list = useListState({ defaults: { sort: [{ field: 'created', direction: 'desc' }] } });
  const drawer = useDrawerParam('tokenGrantId');
  // The generated token lives here only, for its own grant's drawer: gone when the drawer closes,
  // shows another item (Back, Forward, a link) or the page is left (spec 001 §2).
  const [generated, setGenerated] = useState<GeneratedToken | null>(null);
  const [shownId, setShownId] = useState(drawer.openId);
  if (drawer.openId !== shownId) {
    setShownId(drawer.openId);
    if (generated && drawer.openId !== generated.tokenGrantId) setGenerated(null);
  }
  const revoking = useItemQuestion<TokenGrant>();
  const revoke = useRevokeToken();

  const columns: GridColDef<TokenGrant>[] = [
    titleColumn<TokenGrant>(
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 130 },
      drawer,
      (row) => row.tokenGrantId,
    ),
    { field: 'description', headerName: 'Description', flex: 1.5, minWidth: 140 },
    dateTimeColumn<TokenGrant>({ field: 'created', headerName: 'Created' }),
    dateTimeColumn<TokenGrant>({ field: 'expiresOn', headerName: 'Expires On', emptyText: 'Forever' }),
    // Worked out in the browser from the dates, which the export holds; the server has no such field.
    browserColumn<TokenGrant>({
      field: 'status',
      headerName: 'Status',
      width: 110,
      // A Revoked chip whole.
      minWidth: 90,
      valueGetter: (_value, row) => grantStatus(row),
      renderCell: ({ row }) => <TokenStatusChip grant={row} />,
    }),
    {
      field: 'tokenPrefix',
      headerName: 'Token',
      width: 130,
      // The ten characters of a prefix whole, in the monospace font.
      minWidth: 120,
      renderCell: ({ row }) => (
        <Box component="span" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}>
          {row.tokenPrefix}…
        </Box>
      ),
    },
    actionsColumn<TokenGrant>(
      (row) => [
        { label: 'Edit', icon: <EditIcon fontSize="small" />, onClick: () => drawer.open(row.tokenGrantId) },
        {
          label: 'Revoke',
          icon: <BlockIcon fontSize="small" />,
          color: 'error',
          disabled: row.revokedOn !== null,
          onClick: () => revoking.ask(row),
        },
      ],
      { width: 90 },
    ),
  ];

  return (
    <>
      <PageHeader title="Tenant Tokens" subtitle={tenantName && `Tokens of ${tenantName}`} />
      <ResourceGrid
        list={list}
        path={TOKENS_PATH}
        fixedFilter={isGuid(tenantId) ? `tenantId eq ${guidLiteral(tenantId)}` : undefined}
        enabled={isGuid(tenantId)}
        columns={columns}
        essentialColumns={['name', 'status', ACTIONS_FIELD]}
        columnsToggle
        getRowId={(row) => row.tokenGrantId}
        searchFields={['name', 'description']}
        exportFileName="tokens.csv"
        onCreate={() => drawer.open('new')}
        onRowClick={(row) => drawer.open(row.tokenGrantId)}
      />
      <TokenDrawer
        id={drawer.openId}
        tenantId={tenantId}
        tenantName={tenantName}
        generated={generated}
        onCreated={(token) => {
          setGenerated(token);
          drawer.open(token.tokenGrantId, { replace: true });
        }}
        onRevoke={revoking.ask}
        onClose={drawer.close}
      />
      <ItemConfirmDialog
        question={revoking}
        title={(token) => `Revoke Token: ${token.name}`}
        text={TOKEN_MESSAGES.revokeConfirm}
        onConfirm={(token) => revoke.mutateAsync(token.tokenGrantId)}
      />
    </>
  );
}
