import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { INTAKE_MESSAGES } from '@cfs/contracts/intake';
import type { TenantInput } from '@cfs/contracts/tenants';
import type { WorkUnit, WorkUnitFields } from '@cfs/contracts/work-units';
import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import { listQueryKey } from '../../lib/list-api';
import { lookupKeys, tenantQuery, type TenantDetails } from '../../lib/lookups';
import { useApiMutation } from '../../lib/mutations';
import { WORK_UNITS_PATH, workUnitQuery } from './api';

/** The intake wizard's calls (spec 001 §7): the tenant's stored schema, its upload, the Intake unit's create. */

/** Under the tenant's key, so that whatever refreshes the tenant refreshes its schema too. */
const intakeSchemaKey = (tenantId: string) => [...lookupKeys.tenant(tenantId), 'intakewizardschema'] as const;

/**
 * `GET /v1/tenants/{id}/intakewizardschema`: the stored JSON Schema, or null when the tenant has
 * none; kept as its JSON text (empty for none), which the wizard and the schema panel read.
 */
export function intakeSchemaQuery(tenantId: string) {
  return queryOptions({
    queryKey: intakeSchemaKey(tenantId),
    queryFn: async ({ signal }) => {
      if (!isGuid(tenantId)) throw notFoundError();
      const schema = await apiGet<Record<string, unknown> | null>(
        `/v1/tenants/${pathId(tenantId)}/intakewizardschema`,
        undefined,
        { signal },
      );
      return schema === null ? '' : JSON.stringify(schema, null, 2);
    },
    retry: false,
  });
}

export function useIntakeSchema(tenantId: string | null) {
  return useQuery({ ...intakeSchemaQuery(tenantId ?? ''), enabled: tenantId !== null });
}

/** `PUT /api/v1/workunits` with workUnitId -1: "Work unit #{id} created."; a failure "A problem occured. Please try again.". */
export function useCreateIntake() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (fields: WorkUnitFields) =>
      apiSend<WorkUnit>('PUT', `/api${WORK_UNITS_PATH}`, { ...fields, workUnitId: -1 }),
    onSuccess: (unit) => queryClient.setQueryData(workUnitQuery(unit.workUnitId).queryKey, unit),
    invalidate: [listQueryKey(WORK_UNITS_PATH)],
    successMessage: (unit) => WORK_UNIT_MESSAGES.created(unit.workUnitId),
    errorMessage: INTAKE_MESSAGES.problem,
  });
}

/**
 * A new intake schema saved to the tenant through its update (`POST v1/tenants/{id}`), which keeps
 * the fields it is not sent. The server's refusals (not JSON, not a JSON Schema) are the panel's
 * to show on the schema.
 */
export function useSaveIntakeSchema(tenantId: string) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ name, schema }: { name: string; schema: string }) =>
      apiSend<TenantDetails>('POST', `/v1/tenants/${pathId(tenantId)}`, {
        name,
        intakeWizardSchema: schema,
      } satisfies TenantInput),
    onSuccess: (tenant) => queryClient.setQueryData(tenantQuery(tenant.tenantId).queryKey, tenant),
    invalidate: [intakeSchemaKey(tenantId), listQueryKey('/v1/tenants')],
    successMessage: INTAKE_MESSAGES.schemaSaved,
  });
}
