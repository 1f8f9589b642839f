import { useWatch } from 'react-hook-form';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { deviceInputSchema } from '@cfs/contracts/devices';
import { DEVICE_LOGGING_LEVELS, DEVICE_TYPES, OPERATING_SYSTEMS } from '@cfs/contracts/fleet';
import { AuditHistoryButton } from '../../components/audit-history';
import { FormActions } from '../../components/form-actions';
import {
  FormCheckboxField,
  FormSelectField,
  FormSubscriptionField,
  FormTextField,
  type FieldOption,
} from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { SideDrawer } from '../../components/side-drawer';
import { formatDateTime } from '../../lib/dates';
import { useTenantOptions } from '../../lib/lookups';
import { useDevice, useLocationsLookup, useSaveDevice, type Device } from './api';
import { FactList } from '../../components/fact-list';

const options = (values: Readonly<Record<string, number>>): FieldOption[] =>
  Object.entries(values).map(([label, value]) => ({ value, label }));
const DEVICE_TYPE_OPTIONS = options(DEVICE_TYPES);
const LOGGING_LEVEL_OPTIONS = options(DEVICE_LOGGING_LEVELS);
const osName = (id: number) => Object.entries(OPERATING_SYSTEMS).find(([, value]) => value === id)?.[0] ?? 'Unknown';

/** Edit Device (`?deviceId=`). */
export default function DeviceDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={`Edit Device${device.data ? `: ${device.data.name}` : ''}`}
      headerActions={device.data && <AuditHistoryButton entityType="device" entityId={device.data.deviceId} />}
    >
      {device.isPending && id !== null && <LinearProgress />}
      {device.isError && <Typography color="text.secondary">This device does not exist.</Typography>}
      {device.data && <DeviceForm key={device.data.deviceId} device={device.data} onClose={onClose} />}
    </SideDrawer>
  );
}

function DeviceForm({ device, onClose }: { device: Device; onClose: () => void }) {
  const form = useSchemaForm(deviceInputSchema, {
    name: device.name,
    description: device.description ?? '',
    tags: device.tags ?? '',
    deviceTypeId: device.deviceTypeId,
    locationId: device.locationId,
    deviceLoggingLevelId: device.deviceLoggingLevelId,
    heartbeatInterval: device.heartbeatInterval,
    enabled: device.enabled,
    tenantId: device.tenantId,
    subscriptionId: device.subscriptionId,
  });
  const save = useSaveDevice(device.deviceId);
  const tenantId = useWatch({ control: form.control, name: 'tenantId' });
  const tenants = useTenantOptions();
  // A failed lookup leaves only the device's own location to keep.
  const lookup =
    useLocationsLookup(tenantId).data ?? (device.location ? [{ ...device.location, tenantId: device.tenantId }] : []);
  const locations = lookup
    .filter((location) => location.tenantId === null || location.tenantId === tenantId)
    .map((location) => ({ value: location.locationId, label: location.name }));
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FactList>
        <dt>Device ID</dt>
        <dd>{device.deviceId}</dd>
        <dt>Operating System</dt>
        <dd>{osName(device.operatingSystemId)}</dd>
        {device.machineName && (
          <>
            <dt>Machine Name</dt>
            <dd>{device.machineName}</dd>
          </>
        )}
        {device.agentVersion && (
          <>
            <dt>Agent Version</dt>
            <dd>{device.agentVersion}</dd>
          </>
        )}
        {device.lastContact && (
          <>
            <dt>Last Contact</dt>
            <dd>{formatDateTime(device.lastContact)}</dd>
          </>
        )}
      </FactList>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <FormTextField control={form.control} name="tags" label="Tags" />
      <FormSelectField control={form.control} name="deviceTypeId" label="Device Type" options={DEVICE_TYPE_OPTIONS} />
      <FormSelectField
        control={form.control}
        name="locationId"
        label="Location"
        options={locations}
        emptyLabel="None"
      />
      <FormSelectField
        control={form.control}
        name="deviceLoggingLevelId"
        label="Logging Level"
        options={LOGGING_LEVEL_OPTIONS}
      />
      <FormTextField
        control={form.control}
        name="heartbeatInterval"
        label="Heartbeat Interval (seconds)"
        type="number"
        required
      />
      {/* A device stays in the tenant it enrolled with (the server refuses a move): shown, not chosen. */}
      <FormSelectField control={form.control} name="tenantId" label="Tenant" options={tenants} required disabled />
      <FormSubscriptionField control={form.control} name="subscriptionId" tenantId={tenantId} required />
      <FormCheckboxField control={form.control} name="enabled" label="Enabled" />
      <FormActions form={form} onSave={(input) => save.mutateAsync(input)} onClose={onClose} loading={save.isPending} />
    </form>
  );
}
