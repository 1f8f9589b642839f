import Badge from '@mui/material/Badge';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { z } from 'zod';
import { PROTOCOL_TIMER, protocolInputSchema } from '@cfs/contracts/protocols';
import { AuditHistoryButton } from '../../components/audit-history';
import { FormTenantField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { ItemFormActions, type ItemFormProps } from '../../components/item-form';
import { SideDrawer } from '../../components/side-drawer';
import { TimeSpanField } from '../../components/time-span-field';
import { useQueryParam } from '../../lib/url-state';
import { useMatchedRules, useProtocol, useSaveProtocol, type Protocol } from './api';

export interface ProtocolDrawerProps {
  id: string | null;
  tenantId: string | null;
  onCreated: (saved: Protocol) => void;
  onClose: () => void;
}

/** A protocol (spec 002 §2): tabs Edit Protocol and Assigned Rules (with a count), `?protocolId=&tab=rules`. */
export default function ProtocolDrawer({ id, tenantId, onCreated, onClose }: ProtocolDrawerProps) {
  const protocol = useProtocol(id);
  const creating = id === 'new';
  const [tabParam, setTab] = useQueryParam('tab');
  const tab = !creating && tabParam === 'rules' ? 'rules' : 'edit';
  const rules = useMatchedRules(protocol.data?.protocolId);
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={creating ? 'Create Protocol' : `Edit Protocol${protocol.data ? `: ${protocol.data.name}` : ''}`}
      headerActions={
        protocol.data && <AuditHistoryButton entityType="protocol" entityId={String(protocol.data.protocolId)} />
      }
    >
      {!creating && protocol.isPending && <LinearProgress />}
      {!creating && protocol.isError && <Typography color="text.secondary">This protocol does not exist.</Typography>}
      {!creating && protocol.data && (
        <Tabs value={tab} onChange={(_event, next: string) => setTab(next === 'edit' ? null : next)} sx={{ mb: 1 }}>
          <Tab value="edit" label="Edit Protocol" />
          <Tab
            value="rules"
            label={
              <Badge
                badgeContent={rules.data?.count ?? 0}
                color="primary"
                showZero
                sx={{ pr: 2, '& .MuiBadge-badge': { right: 4 } }}
              >
                Assigned Rules
              </Badge>
            }
          />
        </Tabs>
      )}
      {id !== null && (creating || protocol.data) && tab === 'edit' && (
        <ProtocolForm
          key={id}
          id={id}
          protocol={protocol.data}
          tenantId={tenantId}
          onSaved={(saved) => (creating ? onCreated(saved) : undefined)}
          onClose={onClose}
        />
      )}
      {tab === 'rules' && (
        <>
          {rules.isPending && <LinearProgress />}
          {rules.data?.count === 0 && (
            <Typography color="text.secondary">No rules create work units with this protocol.</Typography>
          )}
          <List dense aria-label="Assigned Rules">
            {(rules.data?.value ?? []).map((rule) => (
              <ListItem key={rule.ruleId} divider>
                <ListItemText primary={rule.name} secondary={rule.enabled ? 'Enabled' : 'Disabled'} />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </SideDrawer>
  );
}

type Values = z.input<typeof protocolInputSchema>;

/** The form's values of a protocol, or of a new one in `tenantId`. */
const valuesOf = (protocol: Protocol | undefined, tenantId: string | null = null): Values => ({
  name: protocol?.name ?? '',
  description: protocol?.description ?? '',
  tenantId: protocol ? protocol.tenantId : tenantId,
  timerInverval: protocol?.timerInverval ?? PROTOCOL_TIMER.defaultInterval,
  manualActions: protocol?.manualActions ?? '',
});

function ProtocolForm({ id, protocol, tenantId, onSaved, onClose }: ItemFormProps<Protocol> & { protocol?: Protocol }) {
  const form = useSchemaForm(protocolInputSchema, valuesOf(protocol, tenantId));
  const save = useSaveProtocol(id);
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      {/* None: a protocol any tenant's unit may follow, kept by users of all tenants. */}
      <FormTenantField control={form.control} name="tenantId" />
      <TimeSpanField
        control={form.control}
        name="timerInverval"
        label="Timer Interval"
        required
        helperText="HH:mm:ss, at least 10 minutes: how often the OnTimer actions run."
      />
      <FormTextField control={form.control} name="manualActions" label="Manual Actions" multiline minRows={3} />
      <ItemFormActions form={form} save={save} valuesOf={valuesOf} onSaved={onSaved} onClose={onClose} />
    </form>
  );
}
