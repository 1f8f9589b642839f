import { z } from 'zod';
import { guid, optionalText, URL_PATTERN, requiredText } from './fields.js';
import {
  EXECUTABLE_TYPES,
  FLEET_LIMITS,
  FLEET_MESSAGES,
  FREQUENCY_TYPES,
  OPERATING_SYSTEMS,
  OPERATION_RESULT_TYPES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  PARAMETER_SOURCES,
} from './fleet.js';

/**
 * The package catalogue (spec 002 §3 Package, Package version, Operation; §4 package version
 * status; §5 package version upload; §7 Packages; §8). The spec names only the upload's and the
 * delete's messages; the others are ours, worded like them.
 */
export const PACKAGE_MESSAGES = {
  nameRequired: 'Name is required',
  packageTypeRequired: 'Package Type is required',
  operatingSystemsRequired: 'Choose at least one operating system',
  referenceUrlInvalid: 'Please enter a valid URL.',
  tenantlessRefused: 'Only a user of all tenants may create or edit a package shared by every tenant.',
  saveFailed: 'A problem occurred saving the package. Please try again.',
  saved: 'Package saved.',
  deleted: 'Package deleted successfully.',
  deleteConfirm: 'Are you sure you want to delete this package and its versions and operations?',
  deleteInUse:
    'The package cannot be deleted while a device has it installed or wanted, or a device operation uses one of its operations.',
  labelRequired: 'Label is required',
  fileRequired: 'File is required',
  versionRequired: 'Version is required',
  versionInvalid: 'Version must be a SemVer 2 version, e.g. 1.2.3 or 1.3.0-beta.1',
  versionDuplicate: (version: string) => `Version ${version} already exists for this package.`,
  fileTooLarge: (megabytes: number) => `The file is larger than the ${String(megabytes)} MB limit.`,
  uploadUnreadable: 'The upload is not a readable multipart form.',
  uploaded: 'Package version uploaded successfully.',
  uploadFailed: FLEET_MESSAGES.uploadFailed,
  versionDeleted: FLEET_MESSAGES.packageVersionDeleted,
  versionDeleteConfirm: 'Are you sure you want to delete this package version?',
  latestDeleteRefused: 'The Latest version cannot be deleted.',
  versionInUse: 'The version cannot be deleted while a device has it installed or wanted.',
  usedByOtherTenants: 'Devices of other tenants use this package: it can stay shared, or belong to their tenant.',
  operationNameRequired: 'Name is required',
  operationTypeRequired: 'Operation Type is required',
  resultTypeRequired: 'Result Type is required',
  frequenciesRequired: 'Choose at least one frequency',
  intervalRequired: FLEET_MESSAGES.intervalRequired,
  intervalFormat: 'Interval must be written HH:mm:ss',
  intervalMinimum: 'Interval must be at least 00:00:30',
  parameterNameRequired: 'Parameter name is required',
  parameterNamesUnique: 'Parameter names must be unique',
  operationSaved: 'Operation saved.',
  operationSaveFailed: 'A problem occurred saving the operation. Please try again.',
  operationDeleted: 'Operation deleted successfully.',
  operationDeleteConfirm: 'Are you sure you want to delete this operation?',
  operationInUse: 'The operation cannot be deleted while a device operation uses it.',
} as const;

const enumValue = <T extends Record<string, number>>(values: T, message: string) =>
  z
    .number({ error: message })
    .int(message)
    .refine((value) => Object.values(values).includes(value), message);

/** "HH:mm:ss" ↔ seconds: intervals are stored as seconds and shown as the spec writes them. */
export function intervalToSeconds(text: string): number | null {
  const match = /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** The one message an interval earns (spec 002 §5: required, HH:mm:ss, at least 30 seconds), or null when it is fine. */
export function intervalProblem(text: string): string | null {
  if (text.trim() === '') return PACKAGE_MESSAGES.intervalRequired;
  const seconds = intervalToSeconds(text.trim());
  if (seconds === null) return PACKAGE_MESSAGES.intervalFormat;
  return seconds < FLEET_LIMITS.minimumOperationIntervalSeconds ? PACKAGE_MESSAGES.intervalMinimum : null;
}

/** A secured-value parameter's pairs (spec 002 §3): where the agent finds each secret and the placeholder it replaces. */
export const securedValueSchema = z.object({
  PlaceholderKeyForSecretValue: z.string().trim().min(1).max(200),
  SecuredSourceKeyToGetSecretValue: z.string().trim().min(1).max(500),
});

/** A parameter definition as the spec spells it (PascalCase, like a device operation's parameters). */
export const parameterDefinitionSchema = z.object({
  Name: z
    .string({ error: PACKAGE_MESSAGES.parameterNameRequired })
    .trim()
    .min(1, PACKAGE_MESSAGES.parameterNameRequired)
    .max(100),
  Description: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  Required: z
    .boolean()
    .optional()
    .transform((value) => value ?? false),
  Source: z
    .enum(PARAMETER_SOURCES)
    .optional()
    .transform((value) => value ?? 'PortalEntry'),
  DefaultValue: z
    .string()
    .max(4000)
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  SecuredValues: z.array(securedValueSchema).max(50).optional(),
});
export type ParameterDefinition = z.output<typeof parameterDefinitionSchema>;

const parameterDefinitions = z
  .array(parameterDefinitionSchema)
  .max(100)
  .optional()
  .transform((value) => value ?? [])
  .refine(
    (list) => new Set(list.map((item) => item.Name.toLowerCase())).size === list.length,
    PACKAGE_MESSAGES.parameterNamesUnique,
  );

export const packageSchema = z.object({
  packageId: z.uuid(),
  name: z.string(),
  /** Null: installation-wide, offered to every tenant. */
  tenantId: z.uuid().nullable(),
  description: z.string().nullable(),
  packageTypeId: z.number().int(),
  executableName: z.string().nullable(),
  executableTypeId: z.number().int().nullable(),
  referenceUrl: z.string().nullable(),
  operatingSystemRidsId: z.array(z.number().int()),
  parameterDefinitions: z.array(z.record(z.string(), z.unknown())),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type Package = z.infer<typeof packageSchema>;

export const packageInputSchema = z.object({
  name: requiredText(PACKAGE_MESSAGES.nameRequired, 200),
  tenantId: guid('Please choose a tenant.')
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  description: optionalText(2000),
  packageTypeId: enumValue(PACKAGE_TYPES, PACKAGE_MESSAGES.packageTypeRequired),
  executableName: optionalText(260),
  executableTypeId: enumValue(EXECUTABLE_TYPES, 'Please choose an executable type.')
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  referenceUrl: optionalText(2000).refine(
    (value) => value === null || URL_PATTERN.test(value),
    PACKAGE_MESSAGES.referenceUrlInvalid,
  ),
  operatingSystemRidsId: z
    .array(enumValue(OPERATING_SYSTEMS, PACKAGE_MESSAGES.operatingSystemsRequired))
    .optional()
    .transform((value) => [...new Set(value ?? [])].sort((a, b) => a - b)),
  parameterDefinitions,
});
export type PackageInput = z.input<typeof packageInputSchema>;
export type PackageValues = z.output<typeof packageInputSchema>;

export const operationSchema = z.object({
  operationId: z.uuid(),
  packageId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  parameterDefinitions: z.array(z.record(z.string(), z.unknown())),
  frequencyDefinitions: z.array(z.number().int()),
  /** HH:mm:ss. */
  defaultInterval: z.string(),
  operationType: z.number().int(),
  operationResultTypeId: z.number().int(),
  created: z.date(),
  modified: z.date(),
});
export type Operation = z.infer<typeof operationSchema>;

export const operationInputSchema = z.object({
  name: z
    .string({ error: PACKAGE_MESSAGES.operationNameRequired })
    .trim()
    .min(1, PACKAGE_MESSAGES.operationNameRequired)
    .max(200),
  description: optionalText(2000),
  parameterDefinitions,
  frequencyDefinitions: z
    .array(enumValue(FREQUENCY_TYPES, PACKAGE_MESSAGES.frequenciesRequired), {
      error: PACKAGE_MESSAGES.frequenciesRequired,
    })
    .min(1, PACKAGE_MESSAGES.frequenciesRequired)
    .transform((value) => [...new Set(value)].sort((a, b) => a - b)),
  defaultInterval: z
    .string({ error: PACKAGE_MESSAGES.intervalRequired })
    .trim()
    .superRefine((value, ctx) => {
      const message = intervalProblem(value);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  operationType: enumValue(OPERATION_TYPES, PACKAGE_MESSAGES.operationTypeRequired),
  operationResultTypeId: enumValue(OPERATION_RESULT_TYPES, PACKAGE_MESSAGES.resultTypeRequired),
});
export type OperationInput = z.input<typeof operationInputSchema>;
export type OperationValues = z.output<typeof operationInputSchema>;

export const packageVersionSchema = z.object({
  packageVersionId: z.uuid(),
  packageId: z.uuid(),
  version: z.string(),
  label: z.string(),
  created: z.date(),
  createdBy: z.string().nullable(),
  packageVersionStatusId: z.number().int(),
  fileName: z.string(),
  fileSize: z.number(),
  fileSha256: z.string(),
});
export type PackageVersion = z.infer<typeof packageVersionSchema>;

/** GET v1/packages/{id}: the package with its operations and versions (newest first). */
export const packageDetailSchema = packageSchema.extend({
  operations: z.array(operationSchema),
  versions: z.array(packageVersionSchema),
});
export type PackageDetail = z.infer<typeof packageDetailSchema>;

/**
 * A SemVer 2 version exactly as semver.org's grammar writes it: no leading "v" or "=", no
 * leading zeros. Lenient parsers read "v1.3.0" as 1.3.0, which would make it Latest under a
 * name the uploader did not type; the form and the server refuse it instead.
 */
const SEMVER_2 =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** The text fields of POST /v1/packages/upload (multipart; the file arrives as `file-0`). */
export const packageUploadFieldsSchema = z.object({
  packageId: guid('Please choose a package.'),
  version: z
    .string({ error: PACKAGE_MESSAGES.versionRequired })
    .trim()
    .min(1, PACKAGE_MESSAGES.versionRequired)
    .max(256)
    // An empty version has its own message above.
    .refine((version) => version === '' || SEMVER_2.test(version), PACKAGE_MESSAGES.versionInvalid),
  label: requiredText(PACKAGE_MESSAGES.labelRequired, 200),
  tenantId: z.string().optional(),
});
