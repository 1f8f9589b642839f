import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { PACKAGE_MESSAGES } from '@cfs/contracts/packages';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { RowActionButtons } from '../../components/grid-columns';
import { DateWithAge } from '../../components/date-with-age';
import { useDeleteVersion, type PackageDetail, type PackageVersion } from './api';
import { versionStatusLabel } from './package-labels';

const STATUS_COLORS: Record<number, 'success' | 'default' | 'warning'> = {
  [PACKAGE_VERSION_STATUSES.Latest]: 'success',
  [PACKAGE_VERSION_STATUSES.Archived]: 'default',
  [PACKAGE_VERSION_STATUSES.PreRelease]: 'warning',
};

/** The package's versions, newest first (spec 002 §2, §4: Delete is hidden for Latest). */
export function VersionsTab({ pkg }: { pkg: PackageDetail }) {
  const deleting = useItemQuestion<PackageVersion>();
  const remove = useDeleteVersion(pkg.packageId);
  if (pkg.versions.length === 0) return <Typography color="text.secondary">No versions uploaded yet.</Typography>;
  return (
    <>
      <Table size="small" aria-label="Versions">
        <TableHead>
          <TableRow>
            <TableCell>Version</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Label</TableCell>
            <TableCell>File</TableCell>
            <TableCell align="right" />
          </TableRow>
        </TableHead>
        <TableBody>
          {pkg.versions.map((version) => (
            <TableRow key={version.packageVersionId} hover>
              <TableCell>{version.version}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  label={versionStatusLabel(version.packageVersionStatusId)}
                  color={STATUS_COLORS[version.packageVersionStatusId] ?? 'default'}
                />
              </TableCell>
              <TableCell>
                <DateWithAge value={version.created} />
              </TableCell>
              <TableCell>{version.label}</TableCell>
              <TableCell sx={{ wordBreak: 'break-all' }}>{version.fileName}</TableCell>
              <TableCell align="right">
                {version.packageVersionStatusId !== PACKAGE_VERSION_STATUSES.Latest && (
                  <RowActionButtons
                    actions={[
                      {
                        label: 'Delete',
                        name: `Delete version ${version.version}`,
                        icon: <DeleteIcon fontSize="small" />,
                        color: 'error',
                        onClick: () => deleting.ask(version),
                      },
                    ]}
                  />
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ItemConfirmDialog
        question={deleting}
        title={(version) => `Delete Version ${version.version}`}
        text={PACKAGE_MESSAGES.versionDeleteConfirm}
        onConfirm={(version) => remove.mutateAsync(version.packageVersionId)}
      />
    </>
  );
}
