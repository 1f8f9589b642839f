import { useParams } from './router';
import { useCurrentUser } from '../auth/session-data';
import { isGuid } from '@cfs/contracts/values/odata';

/** The tenant of the current page: the route's tenant id, else the user's own (pages such as /workunitsv2 carry none). */
export function useTenantId(): string {
  const { tenantId } = useParams();
  const currentUser = useCurrentUser();
  return isGuid(tenantId) ? tenantId : (currentUser.tenantId ?? '');
}
