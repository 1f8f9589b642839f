import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acknowledgeMatchesSchema,
  matchesChangedSchema,
  ruleMatchRowSchema,
  silenceMatchesSchema,
} from '@cfs/contracts/rule-matches';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { acknowledge, silence } from './commands.js';
import { ruleMatchesResource } from './resource.js';

/** Rule matches (spec 002 §3 RuleMatch, §7): part of Rules, read with the Rules view permission. */
export const ruleMatchRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/rulematches',
      title: 'rule matches',
      resource: ruleMatchesResource,
      row: ruleMatchRowSchema,
      permission: 'Rules:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('rule_match').selectAll(),
      exportFileName: 'rulematches.csv',
      tags: ['Rule matches'],
    });

    // Taking matches on, and silencing them: changes to what rules do, so the Rules edit permission.
    app.post(
      '/v1/rulematches/acknowledge',
      {
        config: { permission: 'Rules:edit' },
        schema: {
          tags: ['Rule matches'],
          operationId: 'acknowledgeRuleMatches',
          summary: 'Acknowledge open rule matches',
          description: 'Records who took the open matches on, when, and their note; it ends with each match.',
          body: acknowledgeMatchesSchema,
          response: { 200: matchesChangedSchema },
        },
      },
      async (request) => acknowledge(db, principalOf(request), request.body.ruleMatchIds, request.body.note),
    );
    app.post(
      '/v1/rulematches/silence',
      {
        config: { permission: 'Rules:edit' },
        schema: {
          tags: ['Rule matches'],
          operationId: 'silenceRuleMatches',
          summary: 'Silence open rule matches for a while',
          description:
            "Silences each match's rule and subject from now for the duration (HH:mm:ss, up to 7 days): their actions are suppressed meanwhile, and the match actions of a match still holding run when it ends.",
          body: silenceMatchesSchema,
          response: { 200: matchesChangedSchema },
        },
      },
      async (request) =>
        silence(db, principalOf(request), request.body.ruleMatchIds, request.body.duration, request.body.note),
    );
  };
