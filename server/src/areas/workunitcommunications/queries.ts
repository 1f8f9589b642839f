import type { Communication, CommunicationWorkUnit } from '@cfs/contracts/communications';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { findListItem, type ListItemJson } from '../../odata/list-item.js';
import { communicationEntity } from './resource.js';

export const COMMUNICATION = 'The communication';
export const ACTIVITY = 'The activity';

/** A communication's expansions as its item shows them: its tenant, its linked work units (each with its tenant), its activities. */
export const COMMUNICATION_ITEM_EXPAND = 'tenant,workUnits/tenant,workUnitCommunicationActivities';

/** A communication read as the list shapes its rows, with the expansions named (findListItem); 404 outside the scope. */
function findWith(db: Db, scope: TenantScope, id: string, expand: string): Promise<ListItemJson> {
  return findListItem(
    db,
    communicationEntity.resource,
    () => scoped(db, scope).selectFrom('work_unit_communication').selectAll(),
    scope,
    { field: 'workUnitCommunicationId', id, expand },
    COMMUNICATION,
  );
}

/**
 * One communication with its tenant, its linked work units (each with its tenant) and its
 * activities, as the list shapes its rows: GET v1/workunitcommunications/{id} and what a create or
 * an update answers. 404 "The communication was not found." outside the scope.
 */
export function findCommunication(db: Db, scope: TenantScope, id: string): Promise<ListItemJson> {
  return findWith(db, scope, id, COMMUNICATION_ITEM_EXPAND);
}

/** The work units linked to a communication (each with its tenant), as its item shows them: what a link answers. */
export async function findLinkedWorkUnits(db: Db, scope: TenantScope, id: string): Promise<CommunicationWorkUnit[]> {
  const item = JSON.parse((await findWith(db, scope, id, 'workUnits/tenant')).text) as Pick<Communication, 'workUnits'>;
  return item.workUnits ?? [];
}
