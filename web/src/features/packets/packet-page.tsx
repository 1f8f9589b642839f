import { useParams } from 'react-router';
import Typography from '@mui/material/Typography';
import { FLEET_MESSAGES, FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { PacketView } from '../../components/packet-view';
import { isGuid } from '../../lib/ids';
import { PageHeader } from '../../lib/page-header';

/** /{tenantId}/packets/{id} (spec 002 §2): the packets of one entity, refreshed every 10.005 s (§9). */
export default function PacketPage() {
  const { id = '' } = useParams();
  return (
    <>
      <PageHeader title="Packet" />
      {isGuid(id) ? (
        <PacketView key={id} entityId={id.toLowerCase()} refreshMs={FLEET_POLLING_MS.packets} />
      ) : (
        <Typography color="text.secondary">{FLEET_MESSAGES.noPacket}</Typography>
      )}
    </>
  );
}
