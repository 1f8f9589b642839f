import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { AuditHistoryButton } from '../../components/audit-history';
import { SideDrawer } from '../../components/side-drawer';
import { useQueryParam } from '../../lib/url-state';
import { usePackage, type Package } from './api';
import { OperationsTab } from './operations-tab';
import { PackageForm } from './package-form';
import { VersionsTab } from './versions-tab';

export interface PackageDrawerProps {
  id: string | null;
  tenantId: string | null;
  onCreated: (saved: Package) => void;
  onUpload: (packageId: string) => void;
  onClose: () => void;
}

type PackageTab = 'operations' | 'versions';

/** Create/Edit Package (spec 002 §2): the tabs Edit Package, Operations and Versions; the last two only when editing. */
export default function PackageDrawer({ id, tenantId, onCreated, onUpload, onClose }: PackageDrawerProps) {
  const pkg = usePackage(id);
  const creating = id === 'new';
  const [tabParam, setTab] = useQueryParam('tab');
  const tab: PackageTab | null = !creating && (tabParam === 'operations' || tabParam === 'versions') ? tabParam : null;
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      width="760px"
      title={creating ? 'Create Package' : `Edit Package${pkg.data ? `: ${pkg.data.name}` : ''}`}
      headerActions={pkg.data && <AuditHistoryButton entityType="package" entityId={pkg.data.packageId} />}
    >
      {!creating && pkg.isPending && <LinearProgress />}
      {!creating && pkg.isError && <Typography color="text.secondary">This package does not exist.</Typography>}
      {!creating && pkg.data && (
        <Tabs
          value={tab ?? 'edit'}
          onChange={(_event, next: string) => setTab(next === 'edit' ? null : next)}
          sx={{ mb: 2 }}
        >
          <Tab value="edit" label="Edit Package" />
          <Tab value="operations" label="Operations" />
          <Tab value="versions" label="Versions" />
        </Tabs>
      )}
      {id !== null && tab === null && (creating || pkg.data) && (
        <PackageForm
          key={id}
          id={id}
          pkg={pkg.data}
          tenantId={tenantId}
          onSaved={(saved) => (creating ? onCreated(saved) : undefined)}
          onClose={onClose}
        />
      )}
      {tab === 'operations' && pkg.data && <OperationsTab pkg={pkg.data} />}
      {tab === 'versions' && pkg.data && (
        <>
          <Button variant="contained" size="small" sx={{ mb: 2 }} onClick={() => onUpload(pkg.data.packageId)}>
            Upload Version
          </Button>
          <VersionsTab pkg={pkg.data} />
        </>
      )}
    </SideDrawer>
  );
}
