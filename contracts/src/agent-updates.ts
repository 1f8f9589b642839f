import { z } from 'zod';

/**
 * A tenant's agent updates (GET and PUT /v1/agentUpdatePolicies/{tenantId}): which version of the
 * shared agent package (AGENT_RELEASE_PACKAGE) its devices run — the Latest, or a pinned version —
 * the percentage of its devices that take a new version first, and the minutes an updated agent has
 * to report before it goes back to the version it ran (and the rollout halts).
 */
export const AGENT_UPDATE_LIMITS = {
  rolloutPercentMin: 1,
  rolloutPercentMax: 100,
  rollbackMinutesMin: 1,
  rollbackMinutesMax: 1440,
  defaultRolloutPercent: 100,
  defaultRollbackMinutes: 10,
} as const;

export const AGENT_UPDATE_MESSAGES = {
  rolloutPercent: `Please enter a whole percentage from ${AGENT_UPDATE_LIMITS.rolloutPercentMin} to ${AGENT_UPDATE_LIMITS.rolloutPercentMax}.`,
  rollbackMinutes: `Please enter a whole number of minutes from ${AGENT_UPDATE_LIMITS.rollbackMinutesMin} to ${AGENT_UPDATE_LIMITS.rollbackMinutesMax}.`,
  unknownVersion: 'The agent package has no such version.',
  saved: 'Agent updates saved successfully.',
  resumed: 'The rollout resumed.',
  agentPackageChosenByPolicy: "The agent's version is chosen in its tenant's Agent Updates (Tenants), not per device.",
} as const;

export const agentUpdatePolicyInputSchema = z.object({
  /** A version of the agent package to pin; null follows the Latest. */
  version: z.string().trim().min(1).max(50).nullable(),
  rolloutPercent: z
    .number({ error: AGENT_UPDATE_MESSAGES.rolloutPercent })
    .int(AGENT_UPDATE_MESSAGES.rolloutPercent)
    .min(AGENT_UPDATE_LIMITS.rolloutPercentMin, AGENT_UPDATE_MESSAGES.rolloutPercent)
    .max(AGENT_UPDATE_LIMITS.rolloutPercentMax, AGENT_UPDATE_MESSAGES.rolloutPercent),
  rollbackMinutes: z
    .number({ error: AGENT_UPDATE_MESSAGES.rollbackMinutes })
    .int(AGENT_UPDATE_MESSAGES.rollbackMinutes)
    .min(AGENT_UPDATE_LIMITS.rollbackMinutesMin, AGENT_UPDATE_MESSAGES.rollbackMinutes)
    .max(AGENT_UPDATE_LIMITS.rollbackMinutesMax, AGENT_UPDATE_MESSAGES.rollbackMinutes),
});
export type AgentUpdatePolicyInput = z.infer<typeof agentUpdatePolicyInputSchema>;

export const agentUpdatePolicySchema = agentUpdatePolicyInputSchema.extend({
  tenantId: z.uuid(),
  /** The versions of the agent package, newest first, with their catalogue status. */
  versions: z.array(z.object({ packageVersionId: z.uuid(), version: z.string(), statusId: z.number().int() })),
  /** The version the tenant's devices are to run now (the pinned one, or the Latest); null while the package has none. */
  target: z
    .object({
      packageVersionId: z.uuid(),
      version: z.string(),
      /** The tenant's devices by what they run and what became of their last update to this version. */
      devices: z.number().int(),
      running: z.number().int(),
      updating: z.number().int(),
      failed: z.number().int(),
      /** When a device first ran it: the rest follow rollbackMinutes later, unless the rollout halts. */
      firstUpdated: z.date().nullable(),
      halted: z.date().nullable(),
      haltedReason: z.string().nullable(),
    })
    .nullable(),
  modified: z.date().nullable(),
  modifiedBy: z.string().nullable(),
});
export type AgentUpdatePolicy = z.infer<typeof agentUpdatePolicySchema>;

export const AGENT_UPDATE_POLICIES_PATH = '/v1/agentUpdatePolicies';
