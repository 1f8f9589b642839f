import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from '../../lib/router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { SEVERITIES, SEVERITY_LABELS, STATE_LABELS } from '@cfs/contracts/values/work-units';
import type { Area } from '@cfs/contracts/permissions';
import { usePermissions } from '../../auth/session-data';
import { useHomeTile } from './api';
import {
  OPEN_STATES,
  complianceHref,
  devicesHref,
  overdueCommunicationsHref,
  ruleMatchesHref,
  versionReportHref,
  workUnitsHref,
} from './home-links';

/** Each open state's colour in the work units chart: new work stands out, waiting work is muted. */
const STATE_COLORS: Readonly<Record<number, string>> = {
  1: '#d32f2f',
  2: '#ef6c00',
  3: '#1976d2',
  4: '#9e9e9e',
  5: '#2e7d32',
};
const SEVERITY_IDS = Object.values(SEVERITIES);

/**
 * The Home dashboard (spec 000 §2 `/{tenantId}`): the tenant at a glance, a tile per area the
 * user may view — open work units, devices, rule matches, overdue communications, this week's
 * compliance — each figure a
 * link to the area's screen filtered to the rows it counts. `fallback` shows when no tile is for
 * this user.
 */
export default function HomeDashboard({ tenantId, fallback }: { tenantId: string; fallback: ReactNode }) {
  const permissions = usePermissions();
  const can = (area: Area) => permissions.has(area, 'view');
  const tiles = [
    can('WorkUnits') && <WorkUnitsTile key="workunits" tenantId={tenantId} />,
    can('Devices') && <DevicesTile key="devices" tenantId={tenantId} />,
    can('Rules') && <RuleMatchesTile key="rulematches" tenantId={tenantId} />,
    can('WorkUnitCommunications') && <CommunicationsTile key="communications" tenantId={tenantId} />,
    can('Compliance') && <ComplianceTile key="compliance" tenantId={tenantId} />,
  ].filter(Boolean);
  if (tiles.length === 0) return <>{fallback}</>;
  return (
    <Box
      data-testid="home-dashboard"
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(340px, 1fr))',
        alignItems: 'stretch',
      }}
    >
      {tiles}
    </Box>
  );
}

/** One tile: a titled card whose heading links to the area, with its figures or their loading state. */
function Tile({
  title,
  href,
  query,
  children,
}: {
  title: string;
  href: string;
  query: { isPending: boolean; isError: boolean };
  children: () => ReactNode;
}) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flex: 1 }}>
        <Link
          component={RouterLink}
          to={href}
          variant="overline"
          underline="hover"
          color="text.secondary"
          sx={{ fontSize: '0.8rem', fontWeight: 600 }}
        >
          {title}
        </Link>
        {query.isError ? (
          <Alert severity="warning" sx={{ mt: 1 }}>
            These figures could not be loaded.
          </Alert>
        ) : query.isPending ? (
          <Skeleton variant="rounded" height={120} sx={{ mt: 1 }} />
        ) : (
          children()
        )}
      </CardContent>
    </Card>
  );
}

/**
 * A figure with its label, the figure a link to the rows it counts. Named by what it shows
 * ("19 Open work units"), so speech input finds it by its words (WCAG 2.5.3, Label in Name).
 */
function Figure({ label, value, href, color }: { label: string; value: number; href: string; color?: string }) {
  return (
    <Link
      component={RouterLink}
      to={href}
      underline="none"
      color="inherit"
      sx={{ display: 'block', borderRadius: 1, px: 1, py: 0.5, '&:hover': { bgcolor: 'action.hover' } }}
    >
      <Typography
        variant="h4"
        component="span"
        sx={{ color: value > 0 ? color : undefined, display: 'block', fontWeight: 500 }}
      >
        {value.toLocaleString()}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Link>
  );
}

function WorkUnitsTile({ tenantId }: { tenantId: string }) {
  const query = useHomeTile('workunits', tenantId, true);
  const navigate = useNavigate();
  const figures = query.data;
  const countOf = (severityId: number, stateId: number) =>
    figures?.counts.find((row) => row.severityId === severityId && row.stateId === stateId)?.count ?? 0;
  const ofSeverity = (severityId: number) =>
    (figures?.counts ?? []).filter((row) => row.severityId === severityId).reduce((sum, row) => sum + row.count, 0);
  // Only the states that hold open work, so the legend names what the bars show.
  const states = OPEN_STATES.filter((stateId) => SEVERITY_IDS.some((severityId) => countOf(severityId, stateId) > 0));
  return (
    <Tile title="Open Work Units" href={workUnitsHref(tenantId)} query={query}>
      {() => (
        <>
          <Figure label="Open work units" value={figures?.open ?? 0} href={workUnitsHref(tenantId)} />
          {states.length > 0 && (
            <BarChart
              height={200}
              xAxis={[{ scaleType: 'band', data: SEVERITY_IDS.map((id) => SEVERITY_LABELS[id] ?? String(id)) }]}
              yAxis={[{ tickMinStep: 1, width: 32 }]}
              series={states.map((stateId) => ({
                id: String(stateId),
                label: STATE_LABELS[stateId],
                stack: 'open',
                color: STATE_COLORS[stateId],
                data: SEVERITY_IDS.map((severityId) => countOf(severityId, stateId)),
              }))}
              onItemClick={(_event, item) => {
                const severityId = SEVERITY_IDS[item.dataIndex];
                if (severityId !== undefined)
                  void navigate(workUnitsHref(tenantId, { severityId, stateId: Number(item.seriesId) }));
              }}
              margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
              skipAnimation
            />
          )}
          <Box
            component="nav"
            aria-label="Open work units by severity"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}
          >
            {SEVERITY_IDS.map((severityId) => (
              <Link
                key={severityId}
                component={RouterLink}
                to={workUnitsHref(tenantId, { severityId })}
                variant="body2"
                aria-label={`${SEVERITY_LABELS[severityId]}: ${ofSeverity(severityId)}`}
              >
                {SEVERITY_LABELS[severityId]}: {ofSeverity(severityId)}
              </Link>
            ))}
          </Box>
        </>
      )}
    </Tile>
  );
}

function DevicesTile({ tenantId }: { tenantId: string }) {
  const query = useHomeTile('devices', tenantId, true);
  const figures = query.data;
  return (
    <Tile title="Devices" href={`/${tenantId}/devices`} query={query}>
      {() =>
        figures && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Box sx={{ flex: 1 }}>
              <Figure label="Online" value={figures.online} href={devicesHref(tenantId, true)} color="success.main" />
              <Figure label="Offline" value={figures.offline} href={devicesHref(tenantId, false)} color="error.main" />
              <Figure
                label="Out of date"
                value={figures.outOfDate}
                href={versionReportHref(tenantId)}
                color="warning.main"
              />
            </Box>
            {figures.total > 0 && (
              <PieChart
                width={140}
                height={140}
                hideLegend
                series={[
                  {
                    innerRadius: 38,
                    data: [
                      { id: 'online', value: figures.online, label: 'Online', color: '#2e7d32' },
                      { id: 'offline', value: figures.offline, label: 'Offline', color: '#d32f2f' },
                    ],
                  },
                ]}
                skipAnimation
              />
            )}
          </Box>
        )
      }
    </Tile>
  );
}

function RuleMatchesTile({ tenantId }: { tenantId: string }) {
  const query = useHomeTile('rulematches', tenantId, true);
  const figures = query.data;
  return (
    <Tile title="Rule Matches" href={ruleMatchesHref(tenantId)} query={query}>
      {() =>
        figures && (
          <>
            <Figure
              label="Active rule matches"
              value={figures.active}
              href={ruleMatchesHref(tenantId)}
              color="warning.main"
            />
            {figures.topRules.length > 0 && (
              <Box component="nav" aria-label="Rules with the most active matches" sx={{ mt: 1 }}>
                {figures.topRules.map((rule) => (
                  <Box
                    key={rule.ruleId}
                    sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, px: 1, py: 0.25 }}
                  >
                    <Link component={RouterLink} to={ruleMatchesHref(tenantId, rule.ruleId)} variant="body2" noWrap>
                      {rule.name}
                    </Link>
                    <Typography variant="body2" color="text.secondary">
                      {rule.count}
                    </Typography>
                  </Box>
                ))}
              </Box>
            )}
          </>
        )
      }
    </Tile>
  );
}

function CommunicationsTile({ tenantId }: { tenantId: string }) {
  const query = useHomeTile('communications', tenantId, true);
  const figures = query.data;
  return (
    <Tile title="Communications" href={`/${tenantId}/workunitcommunications`} query={query}>
      {() =>
        figures && (
          <>
            <Figure
              label="Overdue communications"
              value={figures.overdue}
              href={overdueCommunicationsHref(tenantId)}
              color="error.main"
            />
            <Figure label="Open communications" value={figures.open} href={`/${tenantId}/workunitcommunications`} />
          </>
        )
      }
    </Tile>
  );
}

/** The user's own today as a calendar date: the compliance week is the user's week, not the server's. */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function ComplianceTile({ tenantId }: { tenantId: string }) {
  const query = useHomeTile('compliance', tenantId, true, { checkDate: localToday() });
  const figures = query.data;
  return (
    <Tile title="Compliance This Week" href={`/${tenantId}/compliance`} query={query}>
      {() =>
        figures && (
          <Box component="nav" aria-label="Compliance by control set" sx={{ display: 'grid', gap: 1.5, mt: 1 }}>
            {figures.controlSets.length === 0 && <Typography color="text.secondary">No control sets.</Typography>}
            {figures.controlSets.map((set) => (
              <Link
                key={set.controlSetId}
                component={RouterLink}
                to={complianceHref(tenantId, set.controlSetId, figures.weekStart)}
                underline="none"
                color="inherit"
                sx={{ display: 'block', borderRadius: 1, px: 1, py: 0.5, '&:hover': { bgcolor: 'action.hover' } }}
              >
                <Typography variant="body2" sx={{ fontWeight: 500 }} noWrap>
                  {set.name}
                </Typography>
                <LinearProgress
                  variant="determinate"
                  value={set.percentSet}
                  aria-label={`${set.name}: controls set`}
                  sx={{ my: 0.5, height: 6, borderRadius: 3 }}
                />
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                  <Typography variant="caption" color="text.secondary">
                    {set.percentSet.toFixed(2)}% set ({set.set} of {set.controls})
                  </Typography>
                  <Typography
                    variant="caption"
                    sx={{ color: set.nonCompliant > 0 ? 'warning.dark' : 'text.secondary' }}
                  >
                    {set.nonCompliant} non-compliant
                  </Typography>
                </Box>
              </Link>
            ))}
          </Box>
        )
      }
    </Tile>
  );
}
