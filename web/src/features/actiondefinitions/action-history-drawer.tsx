import { DRAWER_WIDE_WIDTH } from '@cfs/contracts/constants';
import { SideDrawer } from '../../components/side-drawer';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import { useActionDefinition } from './api';
import { ActionHistoryList } from './action-history-list';

/** An action's history (spec 002 §2: a 75vw drawer with a detail dialog per entry), addressed by `?actionHistoryId=`. */
export default function ActionHistoryDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const definition = useActionDefinition(id);
  const name = definition.data?.name;
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={`Action History${name ? `: ${name}` : ''}`}
      width={DRAWER_WIDE_WIDTH}
    >
      <ActionHistoryList filter={isGuid(id) ? `actionDefinitionId eq ${guidLiteral(id)}` : null} />
    </SideDrawer>
  );
}
