import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ruleMatchRowSchema } from '@cfs/contracts/rule-matches';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
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
  };
