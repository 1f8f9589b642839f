import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { silenceInputSchema, silenceRowSchema, silenceSchema } from '@cfs/contracts/silences';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { addSilence, stopSilence } from './commands.js';
import { silencesResource } from './resource.js';

const tags = ['Silences'];

/** Silences (docs/features/rules.md "Acknowledge and silence"): read with the Rules view permission, made and ended with Rules edit. */
export const silenceRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/silences',
      title: 'silences',
      resource: silencesResource,
      row: silenceRowSchema,
      permission: 'Rules:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('rule_silence').selectAll(),
      exportFileName: 'silences.csv',
      tags,
    });
    registerItemRoutes(app, {
      path: '/v1/silences',
      name: { operation: 'Silence', words: 'a silence' },
      area: 'Rules',
      tags,
      params: z.object({ ruleSilenceId: guid() }),
      key: 'ruleSilenceId',
      item: silenceSchema,
      input: silenceInputSchema,
      create: (user, input) => addSilence(db, user, input),
      delete: {
        response: z.object({ message: z.string() }),
        run: (user, { ruleSilenceId }) => stopSilence(db, user, ruleSilenceId),
      },
      own: {
        create: {
          permission: 'Rules:edit',
          description: 'Ahead of time or from now; the matches it covers now are held back at once.',
        },
        delete: {
          permission: 'Rules:edit',
          summary: 'End a silence',
          description: 'Ends it now; one that has not started goes.',
        },
      },
    });
  };
