import {
  FREQUENCY_TYPES,
  OPERATION_RESULT_TYPES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  OPERATING_SYSTEMS,
} from '@cfs/contracts/fleet';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { AgentPackageWriter } from '../../engines/fleet/owner-ports.js';

const AGENT_PACKAGE = 'CFS Agent';

/** The demo agent's operations (engines/fleet/owner-ports.ts). */
export const agentPackageFleetWriter: AgentPackageWriter = {
  /** The tenantless package's operation of that name, made here if the catalogue seed has not made it. */
  async catalogueOperation(trx, name) {
    // The catalogue's tenantless package belongs to the installation, not to Contoso.
    const installation = scoped(trx, ALL_TENANTS);
    const existing = await installation
      .selectFrom('package as p')
      .innerJoin('operation as o', 'o.package_id', 'p.package_id')
      .select('o.operation_id')
      .where('p.name', '=', AGENT_PACKAGE)
      .where('p.tenant_id', 'is', null)
      .where('o.name', '=', name)
      .executeTakeFirst();
    if (existing) return existing.operation_id;
    let pkg = await installation
      .selectFrom('package')
      .select('package_id')
      .where('name', '=', AGENT_PACKAGE)
      .where('tenant_id', 'is', null)
      .executeTakeFirst();
    pkg ??= await installation
      .insertInto('package', {
        name: AGENT_PACKAGE,
        tenant_id: null,
        description: 'The CFS device agent and its built-in operations.',
        package_type_id: PACKAGE_TYPES.AgentLogic,
        operating_system_ids: [OPERATING_SYSTEMS.WinX64, OPERATING_SYSTEMS.LinuxX64],
        created_by: 'seed',
        modified_by: 'seed',
      })
      .returning('package_id')
      .executeTakeFirstOrThrow();
    const definitions =
      name === 'Metric'
        ? [
            {
              Name: 'Metric',
              Description: 'Cpu, Memory or Disk',
              Required: false,
              Source: 'PortalEntry',
              DefaultValue: 'Cpu',
            },
          ]
        : [
            {
              Name: 'Url',
              Description: 'The address to check',
              Required: true,
              Source: 'PortalEntry',
              DefaultValue: '',
            },
            {
              Name: 'Method',
              Description: 'The HTTP method',
              Required: false,
              Source: 'PortalEntry',
              DefaultValue: 'GET',
            },
          ];
    const operation = await trx
      .insertInto('operation')
      .values({
        package_id: pkg.package_id,
        name,
        description: name === 'Metric' ? 'A figure of the machine the agent runs on' : 'Whether an address answers',
        parameter_definitions: JSON.stringify(definitions),
        frequency_type_ids: [FREQUENCY_TYPES.OnDemand, FREQUENCY_TYPES.Recurring, FREQUENCY_TYPES.OneTimeKeepAlive],
        default_interval_seconds: 300,
        operation_type_id: name === 'Metric' ? OPERATION_TYPES.Metric : OPERATION_TYPES.Availability,
        operation_result_type_id: OPERATION_RESULT_TYPES.Numeric,
        created_by: 'seed',
        modified_by: 'seed',
      })
      .returning('operation_id')
      .executeTakeFirstOrThrow();
    return operation.operation_id;
  },
};
