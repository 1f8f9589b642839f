import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { AGENT_RELEASE_FILE, AGENT_RELEASE_PACKAGE } from '@cfs/contracts/agent';
import { EXECUTABLE_TYPES, OPERATING_SYSTEMS, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { recordAudit } from '../../audit/audit.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { fileStoreOf } from '../../files/content-store.js';
import { insertVersion } from './versions.js';

const run = promisify(execFile);
const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/**
 * The agent this portal was built with (`AGENT_RELEASE_FILE` in its agent/dist), as a version of
 * the shared agent package: the package is made when there is none, and the version added when the
 * package lacks it, so tenants following the Latest roll it out once a portal of a newer release
 * starts. The version is the one the bundle itself tells (`cfs-agent version`). Several instances
 * starting at once add it once (the package's row is locked). Returns what it did, for the log.
 */
export async function registerAgentRelease(
  db: Db,
  config: Pick<Config, 'agentDist' | 'dataDir' | 'fileStore'>,
): Promise<string> {
  const file = path.join(config.agentDist, AGENT_RELEASE_FILE);
  const content = await fs.readFile(file).catch(() => undefined);
  if (!content) return `The agent bundle is not built (${AGENT_RELEASE_FILE}): no agent version was registered.`;
  const { stdout } = await run(process.execPath, [file, 'version'], { timeout: 30_000 });
  const version = semver.valid(stdout.trim());
  if (!version) return `The agent bundle told no version it could be registered with (${stdout.trim()}).`;
  const releaseName = 'agent release';
  return db.transaction().execute(async (trx) => {
    const shared = scoped(trx, ALL_TENANTS);
    await shared
      .insertInto('package', {
        name: AGENT_RELEASE_PACKAGE,
        tenant_id: null,
        description:
          'The CFS agent itself: the version a tenant’s devices run is chosen in its agent updates (Tenants).',
        package_type_id: PACKAGE_TYPES.AgentRunner,
        executable_name: AGENT_RELEASE_FILE,
        executable_type_id: EXECUTABLE_TYPES.Executable,
        operating_system_ids: [OPERATING_SYSTEMS.WinX64, OPERATING_SYSTEMS.OsxX64, OPERATING_SYSTEMS.LinuxX64],
        created_by: releaseName,
        modified_by: releaseName,
      })
      .onConflict((conflict) =>
        conflict
          .column('package_type_id')
          .where('tenant_id', 'is', null)
          .where('package_type_id', '=', PACKAGE_TYPES.AgentRunner)
          .doNothing(),
      )
      .execute();
    const pkg = await shared
      .selectFrom('package')
      .select('package_id')
      .where('tenant_id', 'is', null)
      .where('package_type_id', '=', PACKAGE_TYPES.AgentRunner)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const known = await trx
      .selectFrom('package_version')
      .select(['version', 'file_sha256'])
      .where('package_id', '=', pkg.package_id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (known)
      return known.file_sha256 === sha256Of(content)
        ? `The agent ${version} is in the catalogue (${AGENT_RELEASE_PACKAGE}).`
        : `The catalogue's agent ${version} is another file than this portal's: a changed agent needs a new version (agent/package.json).`;
    const stored = await fileStoreOf(config).put(trx, content);
    const { row, status } = await insertVersion(trx, {
      packageId: pkg.package_id,
      version,
      label: `The agent of this portal's release`,
      file: { ...stored, fileName: AGENT_RELEASE_FILE },
      createdBy: releaseName,
    });
    await recordAudit(trx, 'system', {
      entityType: 'package',
      entityId: pkg.package_id,
      tenantId: null,
      action: 'upload version',
      changes: { packageVersionId: row.package_version_id, version, status },
    });
    return `The agent ${version} was added to the catalogue (${AGENT_RELEASE_PACKAGE}).`;
  });
}
