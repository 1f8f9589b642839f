import type { Readable } from 'node:stream';
import {
  scriptSigningText,
  type AgentConfiguration,
  type AgentParameter,
  type AgentScript,
} from '@cfs/contracts/agent';
import {
  FREQUENCY_TYPES,
  INSTALL_STATUSES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  PARAMETER_SOURCES,
  type ParameterSource,
} from '@cfs/contracts/fleet';
import { AGENT_MESSAGES } from '@cfs/contracts/agent';
import type { Config } from '../../config.js';
import type { ScriptSigner } from '../../crypto/script-signer.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { fileStoreOf } from '../../files/content-store.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { fleetWriters } from '../../engines/fleet/owner-ports.js';
import { HttpError, NotFoundError } from '../../http/errors.js';
import type { DeviceCaller } from './commands.js';
import { agentReleaseOffer, agentVersionFile, type AgentReleaseTargets } from './updates.js';

interface StoredParameter {
  Name?: unknown;
  Source?: unknown;
  Value?: unknown;
}

const isSource = (value: unknown): value is ParameterSource =>
  typeof value === 'string' && (PARAMETER_SOURCES as readonly string[]).includes(value);

function storedParameters(json: unknown): { name: string; source: ParameterSource; value: string | null }[] {
  if (!Array.isArray(json)) return [];
  return (json as StoredParameter[]).flatMap((item) =>
    typeof item?.Name === 'string'
      ? [
          {
            name: item.Name,
            source: isSource(item.Source) ? item.Source : 'PortalEntry',
            value: item.Value === undefined || item.Value === null ? null : String(item.Value),
          },
        ]
      : [],
  );
}

/**
 * The latest value of each named secret of the device's tenant. A SecuredValue parameter's Value
 * names a tenant secret (spec 002 §3); the device is the one caller that receives the plain value,
 * over its own credential, and only for its own operations. A name without a secret resolves to
 * null, so the operation fails on the agent and says so in its log instead of running with a name.
 */
async function resolveSecrets(
  db: Db,
  box: SecretBox,
  device: DeviceCaller,
  names: readonly string[],
): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await scoped(db, device.scope)
    .selectFrom('tenant_secret as s')
    .innerJoin('tenant_secret_version as v', (join) =>
      join.onRef('v.secret_id', '=', 's.secret_id').onRef('v.version', '=', 's.latest_version'),
    )
    .select(['s.name', 'v.key_id', 'v.ciphertext'])
    .where('s.tenant_id', '=', device.tenantId)
    .where('s.name', 'in', [...new Set(names)])
    .execute();
  return new Map(rows.map((row) => [row.name, box.decrypt(row.key_id, row.ciphertext)]));
}

/**
 * GET /v1/agent/configuration: what the agent runs, and the mark that it was heard from. OnDemand
 * operations come only while queued, with their completion token. A Script operation carries the
 * device's installed version of its package, signed (`scriptSigningText`), and none while that
 * package is not installed there; the portal's script key comes with every answer.
 */
export async function agentConfiguration(
  db: Db,
  keys: { box: SecretBox; signer: ScriptSigner },
  publicUrl: string,
  device: DeviceCaller,
  targets: AgentReleaseTargets,
): Promise<AgentConfiguration> {
  const now = new Date();
  const row = await fleetWriters().devices.recordContact(db, device.scope, device.deviceId, now);
  if (!row) throw new HttpError(401, 'The device credential is not valid.');

  const [operations, packages, agentRelease] = await Promise.all([
    scoped(db, device.scope)
      .selectFrom('device_operation as d')
      .innerJoin('operation as o', 'o.operation_id', 'd.operation_id')
      .innerJoin('package as sp', 'sp.package_id', 'o.package_id')
      // The device's installed version of the operation's package: what a Script operation runs.
      .leftJoin('device_installation as si', (join) =>
        join.onRef('si.device_id', '=', 'd.device_id').onRef('si.package_id', '=', 'o.package_id'),
      )
      .leftJoin('package_version as sv', 'sv.package_version_id', 'si.installed_package_version_id')
      .select([
        'd.device_operation_id',
        'd.operation_id',
        'o.name as operation_name',
        'd.label',
        'o.operation_type_id',
        'o.operation_result_type_id',
        'd.frequency_type_id',
        'd.interval_seconds',
        'd.completion_token',
        'd.operation_complete',
        'd.parameters',
        'd.modified',
        'o.package_id',
        'sp.name as package_name',
        'sv.package_version_id as script_version_id',
        'sv.file_name as script_file_name',
        'sv.file_sha256 as script_sha256',
      ])
      .where('d.device_id', '=', device.deviceId)
      .where('d.enabled', '=', true)
      .where('d.is_deleted', '=', false)
      .orderBy('d.label')
      .execute(),
    scoped(db, device.scope)
      .selectFrom('device_installation as i')
      .innerJoin('package_version as v', 'v.package_version_id', 'i.package_version_id')
      .innerJoin('package as p', 'p.package_id', 'i.package_id')
      .select([
        'i.package_id',
        'p.name as package_name',
        'p.executable_name',
        'v.package_version_id',
        'v.version',
        'v.file_name',
        'v.file_sha256',
        'v.file_size',
        'i.install_status_id',
        'i.installed_package_version_id',
      ])
      .where('i.device_id', '=', device.deviceId)
      .where('i.install_status_id', '<>', INSTALL_STATUSES.RemovalPending)
      // The agent's own package is not installed as a package: it comes as agentRelease.
      .where((eb) =>
        eb.or([eb('p.tenant_id', 'is not', null), eb('p.package_type_id', '<>', PACKAGE_TYPES.AgentRunner)]),
      )
      .orderBy('p.name')
      .execute(),
    agentReleaseOffer(db, keys.signer, publicUrl, device, row.agent_version, now, targets),
  ]);

  const runnable = operations.filter(
    (op) =>
      op.frequency_type_id !== FREQUENCY_TYPES.OnDemand || (op.completion_token !== null && !op.operation_complete),
  );
  const parsed = new Map(runnable.map((op) => [op.device_operation_id, storedParameters(op.parameters)]));
  const secretNames = [...parsed.values()]
    .flat()
    .flatMap((p) => (p.source === 'SecuredValue' && p.value ? [p.value] : []));
  const secrets = await resolveSecrets(db, keys.box, device, secretNames);
  const resolve = (p: { name: string; source: ParameterSource; value: string | null }): AgentParameter =>
    p.source === 'SecuredValue' ? { ...p, value: p.value === null ? null : (secrets.get(p.value) ?? null) } : p;

  return {
    deviceId: row.device_id,
    name: row.name,
    heartbeatIntervalSeconds: row.heartbeat_interval,
    loggingLevel: row.device_logging_level_id === 1 ? 'None' : 'All',
    traceExpiration: row.trace_expiration,
    tracing: row.trace_expiration !== null && row.trace_expiration.getTime() > now.getTime(),
    restartAgent: row.restart_agent_flag,
    operations: runnable.map((op) => ({
      deviceOperationId: op.device_operation_id,
      operationId: op.operation_id,
      operationName: op.operation_name,
      label: op.label,
      operationTypeId: op.operation_type_id,
      operationResultTypeId: op.operation_result_type_id,
      frequencyTypeId: op.frequency_type_id,
      intervalSeconds: op.interval_seconds,
      completionToken: op.frequency_type_id === FREQUENCY_TYPES.OnDemand ? op.completion_token : null,
      parameters: (parsed.get(op.device_operation_id) ?? []).map(resolve),
      modified: op.modified,
      script: scriptOf(op, keys.signer),
    })),
    packages: packages.map((pkg) => ({
      packageId: pkg.package_id,
      packageName: pkg.package_name,
      executableName: pkg.executable_name,
      packageVersionId: pkg.package_version_id,
      version: pkg.version,
      fileName: pkg.file_name,
      sha256: pkg.file_sha256,
      size: Number(pkg.file_size),
      downloadUrl: `${publicUrl}/v1/agent/packageversions/${pkg.package_version_id}/download`,
      installStatusId: pkg.install_status_id,
      installedPackageVersionId: pkg.installed_package_version_id,
    })),
    scriptKey: keys.signer.publicKey,
    agentRelease,
  };
}

/** A Script operation's installed script, signed; none for other types or while its package is not installed. */
function scriptOf(
  op: {
    operation_type_id: number;
    package_id: string;
    package_name: string;
    script_version_id: string | null;
    script_file_name: string | null;
    script_sha256: string | null;
  },
  signer: ScriptSigner,
): AgentScript | null {
  if (op.operation_type_id !== OPERATION_TYPES.Script) return null;
  if (op.script_version_id === null || op.script_file_name === null || op.script_sha256 === null) return null;
  const script = {
    packageId: op.package_id,
    packageName: op.package_name,
    packageVersionId: op.script_version_id,
    fileName: op.script_file_name,
    sha256: op.script_sha256.toLowerCase(),
  };
  return { ...script, signature: signer.sign(scriptSigningText(script)) };
}

/**
 * A package version's file, when the portal wants it on this device: a device cannot fetch other
 * packages (another tenant's, or ones it was not given) by guessing ids.
 */
export async function wantedPackageFile(
  db: Db,
  config: Pick<Config, 'dataDir' | 'fileStore'>,
  device: DeviceCaller,
  packageVersionId: string,
): Promise<{ stream: Readable; size: number; fileName: string }> {
  const row = await scoped(db, device.scope)
    .selectFrom('device_installation as i')
    .innerJoin('package_version as v', 'v.package_version_id', 'i.package_version_id')
    .select(['v.file_sha256', 'v.file_name'])
    .where('i.device_id', '=', device.deviceId)
    .where('i.package_version_id', '=', packageVersionId)
    .executeTakeFirst();
  // A version of the agent itself is any device's to download; another package's only where wanted.
  const file = row ?? (await agentVersionFile(db, device.scope, packageVersionId));
  if (!file) throw new NotFoundError('The package version');
  const stored = await fileStoreOf(config).open(db, file.file_sha256.toLowerCase());
  if (!stored) throw new HttpError(404, AGENT_MESSAGES.fileMissing);
  return { ...stored, fileName: file.file_name };
}
