import { z } from 'zod';
import { checkDateSchema } from './compliance.js';

/**
 * The Home dashboard (spec 000 §2 route `/{tenantId}`): one figure set per tile, each read with
 * its own call `GET /v1/home/{tile}?tenantId=` and the view permission of the tile's area, so a
 * user sees only the tiles of the areas they may open.
 */
export const HOME_TILES = ['workunits', 'devices', 'rulematches', 'communications', 'compliance'] as const;
export type HomeTile = (typeof HOME_TILES)[number];

/** The dashboard refreshes its figures this often (the devices grid's own polling interval). */
export const HOME_POLLING_MS = 30_000;

/**
 * A device is online while its last contact is more recent than this many heartbeat intervals:
 * one missed heartbeat is late, two in a row is offline.
 */
export const ONLINE_MISSED_HEARTBEATS = 2;

/** How many rules the rule matches tile names, by their number of active matches. */
export const HOME_TOP_RULES = 5;

export const homeQuerySchema = z.object({ tenantId: z.uuid() });

/** Open work units (not Resolved, Closed or Canceled) counted by severity and state. */
export const homeWorkUnitsSchema = z.object({
  open: z.number().int(),
  counts: z.array(z.object({ severityId: z.number().int(), stateId: z.number().int(), count: z.number().int() })),
});
export type HomeWorkUnits = z.infer<typeof homeWorkUnitsSchema>;

/** The tenant's devices (not deleted): online or offline by their heartbeat, and out of date. */
export const homeDevicesSchema = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  /** Devices running a version of a package older than the catalogue's Latest. */
  outOfDate: z.number().int(),
});
export type HomeDevices = z.infer<typeof homeDevicesSchema>;

/** Rule matches still active (spec 002 §4: active until their expires time), and the rules with most. */
export const homeRuleMatchesSchema = z.object({
  active: z.number().int(),
  topRules: z.array(z.object({ ruleId: z.uuid(), name: z.string(), count: z.number().int() })),
});
export type HomeRuleMatches = z.infer<typeof homeRuleMatchesSchema>;

/** Open communications (not Resolved or Cancelled), and those whose next update is past. */
export const homeCommunicationsSchema = z.object({
  open: z.number().int(),
  overdue: z.number().int(),
});
export type HomeCommunications = z.infer<typeof homeCommunicationsSchema>;

/** The compliance tile asks for the week of the user's own today (`checkDate`, any date in the week). */
export const homeComplianceQuerySchema = homeQuerySchema.extend({ checkDate: checkDateSchema });

/**
 * This week's compliance of each control set the tenant has: how many of its controls hold a status
 * other than Notset (and that share as a percentage to two decimals), and how many are NonCompliant.
 */
export const homeComplianceSchema = z.object({
  weekStart: z.string(),
  controlSets: z.array(
    z.object({
      controlSetId: z.uuid(),
      name: z.string(),
      controls: z.number().int(),
      set: z.number().int(),
      percentSet: z.number(),
      nonCompliant: z.number().int(),
    }),
  ),
});
export type HomeCompliance = z.infer<typeof homeComplianceSchema>;
