import { useEffect, useRef } from 'react';
import { useSearchParams } from '../../lib/router';
import { WORK_UNITS_POLL_MS } from '@cfs/contracts/constants';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import { useCurrentUser, usePermissions } from '../../auth/session-data';
import { positiveIntId } from '../../lib/ids';
import { useStoredSwitch } from '../../lib/stored-setting';
import { useToast } from '../../lib/toast';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { useAcknowledge, useWorkUnitByPublicId } from './api';
import { LIST_DEFAULTS, workUnitsFixedFilter } from './work-unit-filters';

/** Parameters that belong to the open panel and go with it. */
const PANEL_PARAMS = ['tab', 'workUnitTypeId'];

/**
 * The work units list page's state (spec 001 §2 "Work units list"): the list in `?search=`, the
 * panel in `?workUnitId=` (a `publicWorkUnitId` is looked up and turned into it; with a
 * `protocolId` a linked unit is not opened, and the list shows that protocol's units), the
 * intake panel, auto-refresh every 60 s while no panel is open, and the page title.
 */
export function useWorkUnitsPage() {
  const tenantId = useTenantId();
  const currentUser = useCurrentUser();
  const permissions = usePermissions();
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = useListState({ defaults: LIST_DEFAULTS });
  const panel = useDrawerParam('workUnitId', { clear: PANEL_PARAMS });
  const intake = useDrawerParam('intake');
  // On by default (spec 001 §4 "Work units auto-refresh is on by default"); the user's choice is kept over reloads.
  const [autoRefresh, setAutoRefresh] = useStoredSwitch('cfs.workUnits.autoRefresh', true);
  const protocolId = positiveIntId(searchParams.get('protocolId'));
  const publicId = searchParams.get('publicWorkUnitId');

  // A link with a protocolId opens no unit (spec 001 §2): drop the unit from the address once.
  const linkedWithProtocol = useRef(protocolId !== null && (panel.openId !== null || publicId !== null));
  useEffect(() => {
    if (!linkedWithProtocol.current) return;
    linkedWithProtocol.current = false;
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        for (const name of ['workUnitId', 'publicWorkUnitId', ...PANEL_PARAMS]) params.delete(name);
        return params;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  const byPublicId = useWorkUnitByPublicId(protocolId === null ? publicId : null);
  useEffect(() => {
    if (!byPublicId.data && !byPublicId.error) return;
    if (byPublicId.error) toast.error(byPublicId.error.message);
    const found = byPublicId.data?.workUnitId;
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.delete('publicWorkUnitId');
        if (found !== undefined) params.set('workUnitId', String(found));
        return params;
      },
      { replace: true },
    );
  }, [byPublicId.data, byPublicId.error, setSearchParams, toast]);

  const openId = protocolId === null ? panel.openId : null;
  const workUnitId = positiveIntId(openId);
  const panelOpen = openId !== null || intake.openId !== null;
  // Spec 001 §2: every 60 s while the setting is on and no panel is open.
  const refetchInterval: number | false = autoRefresh && !panelOpen ? WORK_UNITS_POLL_MS : false;
  const acknowledge = useAcknowledge(currentUser.email ?? currentUser.userName);

  /** The Create menu: Intake opens the intake panel, other types a blank unit (spec 001 §2). */
  const create = (workUnitTypeId: number) => {
    if (workUnitTypeId === WORK_UNIT_TYPES.Intake) {
      intake.open('new');
      return;
    }
    setSearchParams((previous) => {
      const params = new URLSearchParams(previous);
      params.set('workUnitId', 'new');
      params.set('workUnitTypeId', String(workUnitTypeId));
      params.delete('tab');
      return params;
    });
  };

  /** After a create the panel shows the saved unit, in place of the blank one. */
  const created = (unit: WorkUnit) =>
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.set('workUnitId', String(unit.workUnitId));
        for (const name of PANEL_PARAMS) params.delete(name);
        return params;
      },
      { replace: true },
    );

  return {
    tenantId,
    /** Whom "Assigned to me" means: the mail the "(ack)" link assigns. */
    me: currentUser.email ?? currentUser.userName,
    /** Whose units "My groups" means: the assignment groups the user belongs to. */
    myGroups: currentUser.groups,
    canCreate: permissions.has('WorkUnits', 'create'),
    canEdit: permissions.has('WorkUnits', 'edit'),
    list,
    fixedFilter: workUnitsFixedFilter(list.state.filters, protocolId),
    protocolId,
    clearProtocol: () =>
      setSearchParams((previous) => {
        const params = new URLSearchParams(previous);
        params.delete('protocolId');
        return params;
      }),
    autoRefresh,
    setAutoRefresh,
    refetchInterval,
    documentTitle: workUnitId !== null ? `WU #${workUnitId}` : 'Work Units',
    panel: {
      openId,
      workUnitId,
      newTypeId: positiveIntId(searchParams.get('workUnitTypeId')) ?? WORK_UNIT_TYPES.Incident,
      open: panel.open,
      close: panel.close,
      href: panel.href,
    },
    intake,
    create,
    created,
    acknowledge: (unit: WorkUnit) => acknowledge.mutate(unit),
    acknowledging: acknowledge.isPending ? acknowledge.variables.workUnitId : null,
  };
}
