import { z } from 'zod';

/**
 * The version report (spec 002 §2 Version report, §3 ComplianceReport row, §7 Version report, §9):
 * one row per device and installed package, its installed version against the package's Latest.
 * A device runs a package's Current version when it runs the Latest (the highest stable SemVer
 * version of the catalogue; a pre-release is never Latest), or when the package has no Latest yet.
 */
export const VERSION_STATUSES = ['Current', 'Outdated'] as const;

/** Page sizes of the version report (spec 002 §9: 25, 50, 100, default 25). */
export const VERSION_REPORT_PAGE_SIZES = [25, 50, 100] as const;

export const VERSION_REPORT_EXPORT_FILE = 'versionreport.csv';

export const complianceReportRowSchema = z.object({
  /** The row's key: one device × package. */
  installationId: z.number().int(),
  deviceId: z.uuid(),
  deviceName: z.string(),
  tenantId: z.uuid(),
  tenantName: z.string(),
  subscriptionId: z.uuid(),
  subscriptionName: z.string(),
  packageId: z.uuid(),
  packageName: z.string(),
  versionStatus: z.enum(VERSION_STATUSES),
  installedVersion: z.string(),
  installedVersionReleased: z.date(),
  latestVersion: z.string().nullable(),
  latestVersionReleased: z.date().nullable(),
});
export type ComplianceReportRow = z.infer<typeof complianceReportRowSchema>;

/**
 * The fields the report groups by (`$apply=groupby((field))`): the filters' choices, each value
 * once, in order.
 */
export const VERSION_REPORT_GROUP_FIELDS = ['tenantName', 'subscriptionName', 'packageName', 'versionStatus'] as const;
export type VersionReportGroupField = (typeof VERSION_REPORT_GROUP_FIELDS)[number];

/**
 * What the summary strip counts (`$apply=groupby((versionStatus|compliantDevice),aggregate(deviceId|packageId with countdistinct as count))`).
 * A compliant device runs the Current version of every package it has.
 */
export const VERSION_REPORT_COUNT_GROUPS = ['versionStatus', 'compliantDevice'] as const;
export const VERSION_REPORT_COUNTED = ['deviceId', 'packageId'] as const;

/** One group of a `$apply` answer: the grouped value and, for an aggregate, its count. */
export const versionReportGroupSchema = z.object({
  versionStatus: z.enum(VERSION_STATUSES).optional(),
  compliantDevice: z.boolean().optional(),
  tenantName: z.string().optional(),
  subscriptionName: z.string().optional(),
  packageName: z.string().optional(),
  count: z.number().int().optional(),
});
export type VersionReportGroup = z.infer<typeof versionReportGroupSchema>;

export const VERSION_REPORT_MESSAGES = {
  applyInvalid:
    'The $apply must be groupby((tenantName|subscriptionName|packageName|versionStatus)) or groupby((versionStatus|compliantDevice),aggregate(deviceId|packageId with countdistinct as count)).',
  exportFailed: 'The export failed.',
} as const;

/**
 * The up-to-date percentage of the summary strip (spec 002 §9: two decimals): compliant devices of
 * all devices in the report; a report without devices is 100 % up to date.
 */
export function upToDatePercentage(compliantDevices: number, devices: number): string {
  return devices === 0 ? '100.00' : ((compliantDevices / devices) * 100).toFixed(2);
}
