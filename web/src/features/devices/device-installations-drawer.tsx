import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INSTALL_STATUS_LABELS, NO_VERSION } from '@cfs/contracts/devices';
import { PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { SideDrawer, useReportUnsavedChanges } from '../../components/side-drawer';
import { useDevice, useDeviceInstallations, useSaveInstallations, type DeviceInstallation } from './api';

/** Device Installations (`?deviceInstallationsId=`, 75% wide): a version, or none, per package. */
export default function DeviceInstallationsDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  const installations = useDeviceInstallations(id);
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      width="75vw"
      title={`Device Installations${device.data ? `: ${device.data.name}` : ''}`}
    >
      {installations.isPending && id !== null && <LinearProgress />}
      {installations.data && id !== null && (
        // Remounted with each answer, so the choices start from what the server holds.
        <InstallationsForm key={installations.dataUpdatedAt} deviceId={id} installations={installations.data} />
      )}
    </SideDrawer>
  );
}

const chosenOf = (installations: readonly DeviceInstallation[]) =>
  Object.fromEntries(installations.map((row) => [row.installPackage.packageId, row.packageVersionId ?? NO_VERSION]));

function InstallationsForm({ deviceId, installations }: { deviceId: string; installations: DeviceInstallation[] }) {
  const initial = chosenOf(installations);
  const [chosen, setChosen] = useState<Record<string, string>>(initial);
  const changed = installations.filter(
    (row) => chosen[row.installPackage.packageId] !== initial[row.installPackage.packageId],
  );
  const save = useSaveInstallations(deviceId);
  useReportUnsavedChanges(changed.length > 0);
  if (installations.length === 0)
    return <Typography color="text.secondary">No packages are available for this device.</Typography>;
  return (
    <>
      <Table size="small" aria-label="Installations">
        <TableHead>
          <TableRow>
            <TableCell>Package</TableCell>
            <TableCell>Status</TableCell>
            <TableCell sx={{ width: 320 }}>Version</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {installations.map((row) => {
            const packageId = row.installPackage.packageId;
            return (
              <TableRow key={packageId}>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {row.packageName}
                  </Typography>
                  {row.installPackage.description && (
                    <Typography variant="body2" color="text.secondary">
                      {row.installPackage.description}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{INSTALL_STATUS_LABELS[row.installStatus] ?? 'unknown'}</TableCell>
                <TableCell>
                  <TextField
                    select
                    fullWidth
                    size="small"
                    label="Version"
                    value={chosen[packageId] ?? NO_VERSION}
                    onChange={(event) => setChosen((previous) => ({ ...previous, [packageId]: event.target.value }))}
                    slotProps={{ htmlInput: { 'aria-label': `Version of ${row.packageName}` } }}
                  >
                    <MenuItem value={NO_VERSION}>
                      <em>None</em>
                    </MenuItem>
                    {row.packageVersions.map((version) => (
                      <MenuItem key={version.packageVersionId} value={version.packageVersionId}>
                        {version.version}{' '}
                        {version.label && version.label !== version.version ? `(${version.label})` : ''}{' '}
                        {version.packageVersionStatusId === PACKAGE_VERSION_STATUSES.Latest ? '· Latest' : ''}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button
          variant="contained"
          disabled={changed.length === 0 || save.isPending}
          onClick={() =>
            void save
              .mutateAsync(
                changed.map((row) => ({
                  packageId: row.installPackage.packageId,
                  deviceId,
                  packageVersionId: chosen[row.installPackage.packageId] ?? NO_VERSION,
                })),
              )
              .catch(() => undefined)
          }
        >
          Save
        </Button>
      </Box>
    </>
  );
}
