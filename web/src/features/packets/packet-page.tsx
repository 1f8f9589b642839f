import { useParams } from '../../lib/router';
import Typography from '@mui/material/Typography';
import { FLEET_MESSAGES, FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { PacketTabs, isEntityTab } from '../../components/packet-tabs';
import { isGuid } from '@cfs/contracts/values/odata';
import { PageHeader } from '../../lib/page-header';
import { useQueryParam } from '../../lib/url-state';

/** /{tenantId}/packets/{id} (spec 002 §2): the packets of one entity, refreshed every 10.005 s (§9), in the Packet drawer's tabs (`?tab=`). */
export default function PacketPage() {
  const { id = '' } = useParams();
  const [tab, setTab] = useQueryParam('tab');
  return (
    <>
      <PageHeader title="Packet" />
      {isGuid(id) ? (
        <PacketTabs
          key={id}
          entityId={id.toLowerCase()}
          refreshMs={FLEET_POLLING_MS.packets}
          tab={isEntityTab(tab) ? tab : 'details'}
          onTabChange={(next) => setTab(next === 'details' ? null : next)}
        />
      ) : (
        <Typography color="text.secondary">{FLEET_MESSAGES.noPacket}</Typography>
      )}
    </>
  );
}
