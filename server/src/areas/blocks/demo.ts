import { BLOCK_COLORS, BLOCK_TYPES } from '@cfs/contracts/monitoring';
import type { Tx } from '../../db/database.js';
import { DEMO } from '../../db/demo-ids.js';
import { scoped } from '../../db/scoped.js';
import { recordCreatedEntities } from '../../engines/ingestion/entity-owners.js';
import { setEntityColor } from '../../engines/rules/actions.js';

/**
 * A block for each entity of the demo agent (areas/agent/demo-agent.ts): its device's heartbeat
 * (Value: the machine's CPU %), its CPU operation and its check of the portal's health. The agent
 * reports them every 30 s once `npm start` runs it, so the Blocks screen shows live tiles.
 */
export async function seedDemoBlocks(trx: Tx): Promise<void> {
  const block = (blockId: string, name: string, description: string, blockTypeId: number) => ({
    block_id: blockId,
    tenant_id: DEMO.contoso,
    subscription_id: DEMO.contosoProduction,
    name,
    description,
    block_type_id: blockTypeId,
    created_by: 'seed',
    modified_by: 'seed',
  });
  // The seed imports the areas: DEMO is read when the seed runs, not when this module loads.
  const tx = scoped(trx, { kind: 'some', tenantIds: [DEMO.contoso] });
  // Contoso's from the start, as a block created in the portal is: the demo agent's device and operations take these ids later.
  await recordCreatedEntities(trx, DEMO.contoso, [DEMO.demoAgentDevice, DEMO.demoAgentCpu, DEMO.demoAgentHealth]);
  await tx
    .insertInto('block', [
      block(
        DEMO.demoAgentDevice,
        'Demo agent heartbeat',
        "The demo agent's machine: CPU % at each heartbeat",
        BLOCK_TYPES.deviceHeartbeat,
      ),
      block(DEMO.demoAgentCpu, 'Demo agent CPU', 'The CPU operation of the demo agent', BLOCK_TYPES.numeric),
      block(
        DEMO.demoAgentHealth,
        'Portal health',
        "The demo agent's check of the portal's /healthz",
        BLOCK_TYPES.smallText,
      ),
    ])
    .execute();
  // What a rule's set-colour action would leave: the health tile green.
  await setEntityColor(trx, {
    entityId: DEMO.demoAgentHealth,
    tenantId: DEMO.contoso,
    color: BLOCK_COLORS.Green,
    modifiedBy: 'seed',
  });
}
