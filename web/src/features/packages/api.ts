import { useQuery } from '@tanstack/react-query';
import {
  PACKAGE_MESSAGES,
  type Operation as OperationEntity,
  type OperationInput,
  type Package as PackageEntity,
  type PackageDetail as PackageDetailEntity,
  type PackageInput,
  type PackageVersion as PackageVersionEntity,
} from '@cfs/contracts/packages';
import { ApiError, apiGet, apiSend, apiUpload } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** The package catalogue (spec 002 §2 Packages, §7 Packages). */
export const PACKAGES_PATH = '/v1/packages';

export type Package = JsonOf<PackageEntity> & { tenant?: { tenantId: string; name: string } | null };
export type PackageDetail = JsonOf<PackageDetailEntity>;
export type Operation = JsonOf<OperationEntity>;
export type PackageVersion = JsonOf<PackageVersionEntity>;

const packageKey = (id: string | null) => ['package', id] as const;
const invalidate = [listQueryKey(PACKAGES_PATH), ['package']];

/** The failure's own text when the server gave one (spec 002 §8: "the server error, or …"). */
const serverMessage = (fallback: string) => (error: Error) =>
  error instanceof ApiError && error.status < 500 && error.body?.message ? error.body.message : fallback;

/** `GET v1/packages/{id}`: the package with its operations and versions. */
export function usePackage(id: string | null) {
  return useQuery({
    queryKey: packageKey(id),
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<PackageDetail>(`${PACKAGES_PATH}/${pathId(id)}`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null && id !== 'new',
  });
}

export function useSavePackage(id: string) {
  return useApiMutation({
    mutationFn: (input: PackageInput) =>
      id === 'new'
        ? apiSend<Package>('PUT', PACKAGES_PATH, input)
        : apiSend<Package>('POST', `${PACKAGES_PATH}/${pathId(id)}`, input),
    invalidate,
    successMessage: PACKAGE_MESSAGES.saved,
    errorMessage: PACKAGE_MESSAGES.saveFailed,
  });
}

export function useDeletePackage() {
  return useApiMutation({
    mutationFn: (packageId: string) => apiSend<undefined>('DELETE', `${PACKAGES_PATH}/${pathId(packageId)}`),
    invalidate,
    successMessage: PACKAGE_MESSAGES.deleted,
    errorMessage: serverMessage(PACKAGE_MESSAGES.saveFailed),
  });
}

/** `PUT v1/packages/{id}/operations` (create) or `POST v1/packages/{id}/operations/{operationId}`. */
export function useSaveOperation(packageId: string, operationId: string | null) {
  return useApiMutation({
    mutationFn: (input: OperationInput) =>
      operationId === null
        ? apiSend<Operation>('PUT', `${PACKAGES_PATH}/${pathId(packageId)}/operations`, input)
        : apiSend<Operation>('POST', `${PACKAGES_PATH}/${pathId(packageId)}/operations/${pathId(operationId)}`, input),
    invalidate,
    successMessage: PACKAGE_MESSAGES.operationSaved,
    errorMessage: PACKAGE_MESSAGES.operationSaveFailed,
  });
}

export function useDeleteOperation(packageId: string) {
  return useApiMutation({
    mutationFn: (operationId: string) =>
      apiSend<undefined>('DELETE', `${PACKAGES_PATH}/${pathId(packageId)}/operations/${pathId(operationId)}`),
    invalidate,
    successMessage: PACKAGE_MESSAGES.operationDeleted,
    errorMessage: serverMessage(PACKAGE_MESSAGES.operationSaveFailed),
  });
}

export interface VersionUpload {
  packageId: string;
  tenantId: string | null;
  version: string;
  label: string;
  file: File;
}

/** `POST /v1/packages/upload` (multipart: file-0, label, tenantId, packageId, version). */
export function useUploadVersion() {
  return useApiMutation({
    mutationFn: (upload: VersionUpload) => {
      const form = new FormData();
      form.append('packageId', upload.packageId);
      form.append('version', upload.version);
      form.append('label', upload.label);
      if (upload.tenantId) form.append('tenantId', upload.tenantId);
      // The file last: the server reads the fields before the file's bytes arrive.
      form.append('file-0', upload.file, upload.file.name);
      return apiUpload<PackageVersion>(`${PACKAGES_PATH}/upload`, form);
    },
    invalidate,
    successMessage: PACKAGE_MESSAGES.uploaded,
    errorMessage: serverMessage(PACKAGE_MESSAGES.uploadFailed),
  });
}

export function useDeleteVersion(packageId: string) {
  return useApiMutation({
    mutationFn: (versionId: string) =>
      apiSend<undefined>('DELETE', `${PACKAGES_PATH}/${pathId(packageId)}/versions/${pathId(versionId)}`),
    invalidate,
    successMessage: PACKAGE_MESSAGES.versionDeleted,
    errorMessage: serverMessage(PACKAGE_MESSAGES.saveFailed),
  });
}
