import type { Readable } from 'node:stream';
import { sql, type Selectable } from 'kysely';
import semver from 'semver';
import { INSTALL_STATUSES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { PACKAGE_MESSAGES, packageUploadFieldsSchema, type PackageVersion } from '@cfs/contracts/packages';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { scoped } from '../../db/scoped.js';
import { fileStoreOf, FileTooLargeError, type ReceivedFile } from '../../files/content-store.js';
import { unknownFieldErrors } from '../../http/error-handler.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { strictInput } from '../../http/strict-bodies.js';
import { lockPackage, unreferenced } from './commands.js';
import { packageVersionEntity } from './resource.js';
import { requireScriptsForPackages } from '../../auth/host-access.js';

/** One part of a multipart upload as the route reads it. */
export type UploadPart =
  | { type: 'field'; name: string; value: string }
  /** `fromBody`: whether an error is the file stream's own (the body ended early or is malformed), the client's mistake. */
  | {
      type: 'file';
      name: string;
      fileName: string;
      stream: Readable;
      truncated: () => boolean;
      fromBody: (error: unknown) => boolean;
    };

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: (ReceivedFile & { fileName: string }) | null;
}

function tooLarge(config: Config): HttpError {
  return new HttpError(
    413,
    PACKAGE_MESSAGES.fileTooLarge(Math.round((config.packageUploadMaxBytes / 1024 / 1024) * 100) / 100),
    { file: [PACKAGE_MESSAGES.fileTooLarge(Math.round((config.packageUploadMaxBytes / 1024 / 1024) * 100) / 100)] },
  );
}

/**
 * Reads the upload's parts (spec 002 §7: `file-N`, label, tenantId, and the package and version),
 * streaming the file into the file store's temporary folder while hashing it. Over the size cap the
 * temporary file is removed and the answer is 413; nothing is kept until the version is saved.
 * The file's name is kept as data only: the store names files by their hash.
 */
export async function receiveUpload(config: Config, parts: AsyncIterable<UploadPart>): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  let file: ReceivedUpload['file'] = null;
  let reading: UploadPart | null = null;
  try {
    for await (const part of parts) {
      reading = part;
      if (part.type === 'field') {
        fields[part.name] = part.value;
        continue;
      }
      if (file !== null || !/^file(-\d+)?$/.test(part.name)) {
        // One file per version: anything else is read and dropped.
        part.stream.resume();
        continue;
      }
      const received = await fileStoreOf(config).receive(part.stream, config.packageUploadMaxBytes, part.truncated);
      file = { ...received, fileName: part.fileName };
    }
  } catch (error) {
    await file?.discard();
    if (error instanceof FileTooLargeError || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw tooLarge(config);
    // A body cut off inside the file (or malformed there) fails the file's stream, not the parts' reader.
    if (reading?.type === 'file' && reading.fromBody(error))
      throw new BadRequestError(PACKAGE_MESSAGES.uploadFailed, { file: [PACKAGE_MESSAGES.uploadUnreadable] });
    throw error;
  }
  return { fields, file };
}

const strictUploadFields = strictInput(packageUploadFieldsSchema);

/**
 * Saves an uploaded version (spec 002 §3 Package version, §4): SemVer 2; a version with a
 * pre-release tag is PreRelease and never Latest; a stable version above the Latest becomes Latest
 * and the previous Latest is Archived; a stable version below it is Archived. The file is kept at
 * its content address inside the transaction, so a saved row always names a kept file.
 */
export async function saveUploadedVersion(db: Db, user: Principal, upload: ReceivedUpload): Promise<PackageVersion> {
  const { file } = upload;
  try {
    const errors: Record<string, string[]> = {};
    // The form's fields are strict as a JSON body is: an unknown one is named.
    const parsed = strictUploadFields.safeParse(upload.fields);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') Object.assign(errors, unknownFieldErrors(issue.path, issue.keys));
        else (errors[issue.path.join('.') || 'request'] ??= []).push(issue.message);
      }
    if (file === null || file.size === 0) errors.file = [PACKAGE_MESSAGES.fileRequired];
    const version = parsed.success ? semver.valid(parsed.data.version) : null;
    if (parsed.success && version === null) errors.version = [PACKAGE_MESSAGES.versionInvalid];
    if (!parsed.success || file === null || version === null || Object.keys(errors).length > 0)
      throw new BadRequestError(PACKAGE_MESSAGES.uploadFailed, errors);
    const { packageId, label, tenantId } = parsed.data;

    return await db.transaction().execute(async (trx) => {
      const pkg = await lockPackage(scoped(trx, user.tenantScope), user, packageId);
      // A new version of a script is a new script to run: Devices.Scripts, as setting one up is.
      await requireScriptsForPackages(trx, user, [pkg.package_id]);
      // The package decides the tenant; a different one named beside it is a mistake, not a move.
      if (tenantId && tenantId.toLowerCase() !== (pkg.tenant_id ?? ''))
        throw new BadRequestError(PACKAGE_MESSAGES.uploadFailed, { tenantId: ['The tenant is not the package’s.'] });
      const { row, status, archived } = await insertVersion(trx, {
        packageId,
        version,
        label,
        file: { sha256: file.sha256, size: file.size, fileName: file.fileName },
        createdBy: user.userName,
      });
      await lockStoredFile(trx, file.sha256);
      await file.keep(trx);
      await recordAudit(trx, user, {
        entityType: 'package',
        entityId: packageId,
        tenantId: pkg.tenant_id,
        action: 'upload version',
        changes: {
          packageVersionId: row.package_version_id,
          version,
          label,
          status,
          ...(archived ? { archived } : {}),
        },
      });
      return packageVersionEntity.present(row);
    });
  } finally {
    // After keep() the temporary file is gone; otherwise nothing of a refused upload stays.
    await file?.discard();
  }
}

/**
 * Adds a version to a package (locked by the caller): refused when the package has it already; a
 * pre-release is PreRelease, a stable version above the Latest becomes the Latest (the previous
 * one Archived), any other stable version is Archived.
 */
export async function insertVersion(
  trx: Tx,
  input: {
    packageId: string;
    version: string;
    label: string;
    file: { sha256: string; size: number; fileName: string };
    createdBy: string;
  },
): Promise<{ row: Selectable<DB['package_version']>; status: number; archived: string | undefined }> {
  const { packageId, version } = input;
  const existing = await trx
    .selectFrom('package_version')
    .select(['package_version_id', 'version', 'package_version_status_id'])
    .where('package_id', '=', packageId)
    .execute();
  if (existing.some((row) => semver.valid(row.version) !== null && semver.compare(row.version, version) === 0)) {
    throw new BadRequestError(PACKAGE_MESSAGES.uploadFailed, {
      version: [PACKAGE_MESSAGES.versionDuplicate(version)],
    });
  }
  const latest = existing.find((row) => row.package_version_status_id === PACKAGE_VERSION_STATUSES.Latest);
  let status: number;
  if (semver.prerelease(version) !== null) status = PACKAGE_VERSION_STATUSES.PreRelease;
  else if (latest === undefined || semver.gt(version, latest.version)) status = PACKAGE_VERSION_STATUSES.Latest;
  else status = PACKAGE_VERSION_STATUSES.Archived;
  if (status === PACKAGE_VERSION_STATUSES.Latest && latest) {
    await trx
      .updateTable('package_version')
      .set({ package_version_status_id: PACKAGE_VERSION_STATUSES.Archived })
      .where('package_version_id', '=', latest.package_version_id)
      .execute();
  }
  const row = await trx
    .insertInto('package_version')
    .values({
      package_id: packageId,
      version,
      label: input.label,
      package_version_status_id: status,
      file_sha256: input.file.sha256,
      file_name: input.file.fileName.slice(0, 500),
      file_size: input.file.size,
      created_by: input.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, status, archived: status === PACKAGE_VERSION_STATUSES.Latest ? latest?.version : undefined };
}

/** Deletes a version that is not the Latest (spec 002 §4: Delete is hidden for Latest) and no device holds. */
export async function deleteVersion(
  db: Db,
  config: Config,
  user: Principal,
  packageId: string,
  versionId: string,
): Promise<void> {
  const orphans = await db.transaction().execute(async (trx) => {
    const pkg = await lockPackage(scoped(trx, user.tenantScope), user, packageId);
    const row = orNotFound(
      await trx
        .selectFrom('package_version')
        .selectAll()
        .where('package_version_id', '=', versionId)
        .where('package_id', '=', packageId)
        .forUpdate()
        .executeTakeFirst(),
      'The package version',
    );
    if (row.package_version_status_id === PACKAGE_VERSION_STATUSES.Latest)
      throw new BadRequestError(PACKAGE_MESSAGES.latestDeleteRefused);
    // Across every tenant: a shared package's version may be on devices its editor cannot see; only yes or no leaves here.
    const held = await scoped(trx, ALL_TENANTS)
      .selectFrom('device_installation')
      .select('device_id')
      .where((eb) =>
        eb.or([eb('package_version_id', '=', versionId), eb('installed_package_version_id', '=', versionId)]),
      )
      .where('install_status_id', 'not in', [INSTALL_STATUSES.AvailableForInstall, INSTALL_STATUSES.Removed])
      .limit(1)
      .executeTakeFirst();
    if (held) throw new BadRequestError(PACKAGE_MESSAGES.versionInUse);
    await trx.deleteFrom('package_version').where('package_version_id', '=', versionId).execute();
    await recordAudit(trx, user, {
      entityType: 'package',
      entityId: packageId,
      tenantId: pkg.tenant_id,
      action: 'delete version',
      changes: { packageVersionId: versionId, version: row.version },
    });
    return unreferenced(trx, [row.file_sha256]);
  });
  await removeFiles(db, config, orphans);
}

/**
 * Files of deleted versions that no other version names; after the commit, so a rolled-back delete
 * keeps its file. Each is removed under its file's lock, having checked again that no version names
 * it: an upload of the same content on another instance holds that lock from keeping the file to
 * its commit, so its file is never taken from under it.
 */
export async function removeFiles(db: Db, config: Config, hashes: string[]): Promise<void> {
  for (const hash of hashes) {
    await db.transaction().execute(async (trx) => {
      await lockStoredFile(trx, hash);
      if ((await unreferenced(trx, [hash])).length > 0) await fileStoreOf(config).remove(trx, hash);
    });
  }
}

/** The lock of one stored file (by its SHA-256), held to the end of the transaction. */
async function lockStoredFile(trx: Tx, sha256: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`package-file:${sha256}`}, 0))`.execute(trx);
}
