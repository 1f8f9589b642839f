import type { AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/silences': 'Rules:view',
    'GET /v1/silences/Export': 'Rules:view',
    'PUT /v1/silences': 'Rules:edit',
    'DELETE /v1/silences/:ruleSilenceId': 'Rules:edit',
  },
  bodies: {
    'PUT /v1/silences': (o) => ({
      tenantId: o.tenantId,
      ruleId: o.ruleId,
      starts: new Date().toISOString(),
      ends: new Date(Date.now() + 3_600_000).toISOString(),
      note: 'probe',
    }),
    'DELETE /v1/silences/:ruleSilenceId': () => undefined,
  },
  objects: async ({ db }, { tenantId }) => {
    const silence = await db
      .insertInto('rule_silence')
      .values({ tenant_id: tenantId, starts: new Date(), ends: new Date(Date.now() + 86_400_000), note: 'walk' })
      .returning('rule_silence_id')
      .executeTakeFirstOrThrow();
    return { ruleSilenceId: silence.rule_silence_id };
  },
  param: (_url, name, o) => (name === 'ruleSilenceId' ? o.own.ruleSilenceId : undefined),
};
