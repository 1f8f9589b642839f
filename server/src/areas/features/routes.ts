import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';

/** Feature flags (e.g. I3ERequestForm) are switched on by name in the FEATURES setting. */
export const featureRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ config }) =>
  async (app) => {
    app.get(
      '/v1/features/:name/enabled',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['Features'],
          operationId: 'isFeatureEnabled',
          summary: 'Tell whether a feature is on',
          description: 'The name is matched without regard to case; an unknown feature is off.',
          params: z.object({ name: z.string().max(100) }),
          response: { 200: z.boolean() },
        },
      },
      async (request) => config.features.includes(request.params.name.toLowerCase()),
    );
  };
