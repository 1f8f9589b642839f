import { useState } from 'react';
import { Link as RouterLink } from '../lib/router';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import TerminalIcon from '@mui/icons-material/Terminal';
import { DEVICE_MESSAGES, type TenantSettings } from '@cfs/contracts/devices';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { usePermissions } from '../auth/session-data';
import { menuItemHref, visibleMenu } from './menu';
import { useTenantId } from '../lib/use-tenant-id';
import { PageHeader } from '../lib/page-header';
import { apiGet } from '../lib/api-client';
import { pathId } from '../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import HomeDashboard from '../features/home/home-dashboard';
import AgentInstallDialog from './agent-install-dialog';

/** GET /api/{tenantId}/settings: the tenant's settings, of which the Welcome page reads the agent's address. */
function useTenantSettings(tenantId: string) {
  return useQuery({
    queryKey: ['tenant', tenantId, 'settings'],
    queryFn: ({ signal }) => apiGet<TenantSettings>(`/api/${pathId(tenantId)}/settings`, undefined, { signal }),
    enabled: isGuid(tenantId),
    staleTime: 5 * 60_000,
  });
}

/**
 * /{tenantId} (spec 000 §2 Home): the tenant's dashboard, one tile per area the user may view; a
 * user none of its tiles is for sees a card for every area they may open, by the menu's rules (§6).
 */
export default function HomePage() {
  const tenantId = useTenantId();
  const settings = useTenantSettings(tenantId).data;
  const downloadUrl = settings?.agentDownloadUrl;
  const [installing, setInstalling] = useState(false);
  return (
    <>
      <PageHeader
        title="Home"
        actions={
          settings ? (
            <>
              <Button variant="outlined" startIcon={<TerminalIcon />} onClick={() => setInstalling(true)}>
                {DEVICE_MESSAGES.installAgent}
              </Button>
              {/* Spec 002 §2 Welcome page: shown when the tenant's settings give a download address. */}
              {downloadUrl ? (
                <Button variant="contained" href={downloadUrl} startIcon={<DownloadIcon />}>
                  {DEVICE_MESSAGES.downloadAgent}
                </Button>
              ) : null}
            </>
          ) : undefined
        }
      />
      <HomeDashboard tenantId={tenantId} fallback={<AreaCards tenantId={tenantId} />} />
      {installing && settings ? (
        <AgentInstallDialog tenantId={tenantId} settings={settings} onClose={() => setInstalling(false)} />
      ) : null}
    </>
  );
}

function AreaCards({ tenantId }: { tenantId: string }) {
  const groups = visibleMenu(usePermissions());
  if (groups.length === 0) return <Typography color="text.secondary">No areas are available to you.</Typography>;
  return (
    <>
      {groups.map((group) => (
        <Box key={group.key} component="section" aria-label={group.label} sx={{ mb: 3 }}>
          <Typography variant="overline" component="h2" color="text.secondary">
            {group.label}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
            {group.items.map((item) => (
              <Card key={item.path} variant="outlined">
                <CardActionArea component={RouterLink} to={menuItemHref(item, tenantId)} sx={{ height: '100%' }}>
                  <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                    <Box sx={{ color: 'primary.main', display: 'flex' }}>
                      <item.icon />
                    </Box>
                    <Typography sx={{ fontWeight: 500 }}>{item.label}</Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            ))}
          </Box>
        </Box>
      ))}
    </>
  );
}
