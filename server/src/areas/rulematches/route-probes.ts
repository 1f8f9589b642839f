import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/rulematches': 'Rules:view',
    'GET /v1/rulematches/Export': 'Rules:view',
    'POST /v1/rulematches/acknowledge': 'Rules:edit',
    'POST /v1/rulematches/silence': 'Rules:edit',
  },
  // An open match of a rule of the tenant, open for a day.
  objects: async ({ db }, { tenantId }) => {
    const rule = await db
      .insertInto('rule')
      .values({
        tenant_id: tenantId,
        name: `walk ${stamp()}`,
        rule_type_id: 1,
        match_lifetime_seconds: 86_400,
        conditions: '[]',
      })
      .returning('rule_id')
      .executeTakeFirstOrThrow();
    const now = new Date();
    const match = await db
      .insertInto('rule_match')
      .values({
        rule_id: rule.rule_id,
        tenant_id: tenantId,
        subject_id: crypto.randomUUID(),
        first_match: now,
        last_match: now,
        expires: new Date(now.getTime() + 86_400_000),
      })
      .returning('rule_match_id')
      .executeTakeFirstOrThrow();
    return { ruleMatchId: match.rule_match_id };
  },
  bodies: {
    'POST /v1/rulematches/acknowledge': (o) => ({ ruleMatchIds: [o.own.ruleMatchId], note: 'probe' }),
    'POST /v1/rulematches/silence': (o) => ({ ruleMatchIds: [o.own.ruleMatchId], duration: '00:30:00' }),
  },
};
