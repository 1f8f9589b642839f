import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCESS_REQUEST_FEATURE,
  ACCESS_REQUEST_MESSAGES,
  ACCESS_REQUEST_MIN_FILL_MS,
  ACCESS_REQUEST_RATE_LIMIT,
  accessRequestAnswerSchema,
  accessRequestBodySchema,
} from '@cfs/contracts/access-request';
import type { AppDeps } from '../../app-deps.js';
import { BadRequestError, HttpError, NotFoundError } from '../../http/errors.js';
import { enforceLimit } from '../../http/rate-limits.js';
import { createAccessRequest } from './access-request.js';

const HOUR_MS = 3600 * 1000;

/**
 * POST /api/v1/accessrequest (spec 001 §7): open to visitors who cannot sign in, so it is limited
 * per address and per email address and refuses bots (a filled honeypot field, or a form sent sooner than a person
 * could fill it). With the I3ERequestForm feature off it does not exist (404). The body comes in our form or the
 * spec's (`accessRequestBodySchema`).
 */
export const accessRequestRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    const enabled = () => config.features.includes(ACCESS_REQUEST_FEATURE.toLowerCase());
    // Besides the address: one email address's requests, whatever addresses they come from.
    const perEmail = app.createRateLimit({
      max: ACCESS_REQUEST_RATE_LIMIT,
      timeWindow: HOUR_MS,
      keyGenerator: (request) => {
        const body = request.body as { form?: { email?: unknown } } | undefined;
        return String(body?.form?.email ?? '')
          .trim()
          .toLowerCase();
      },
    });
    app.post(
      '/api/v1/accessrequest',
      {
        config: { permission: 'public', rateLimit: { max: ACCESS_REQUEST_RATE_LIMIT, timeWindow: '1 hour' } },
        schema: {
          tags: ['Access request'],
          operationId: 'requestAccess',
          summary: 'Ask for an account',
          description:
            'For visitors who cannot sign in: answers 404 unless the I3ERequestForm feature is on, and is ' +
            'limited per address and per email address. The body in either wire form. Ours: `{ "form": { requestType, firstName, … }, "website"?: "", ' +
            "\"startedAt\"?: ISO time }`. The spec's: the form's fields at the top level, with the work unit's " +
            '`title`, `description`, `stakeHolderFullName`, `stakeHolderEmailAddress`, `stakeHolderPhoneNumber`, ' +
            '`plannedStartTime`, `plannedFinishTime` and `severityId`, which the portal sets itself from the form ' +
            '(what is sent in them is not read). A body with `form` is read as ours. `startedAt`, when sent, ' +
            `must be at least ${ACCESS_REQUEST_MIN_FILL_MS / 1000} seconds old; a filled \`website\` is refused. ` +
            'Any other member is a 400 naming it.',
          body: accessRequestBodySchema,
          response: { 200: accessRequestAnswerSchema },
        },
        // The flag is checked before the body is, so a portal without it reveals nothing of the form.
        preValidation: async () => {
          if (!enabled()) throw new NotFoundError('The requested resource');
        },
        preHandler: (request, reply) => enforceLimit(perEmail, request, reply, ACCESS_REQUEST_MESSAGES.failure),
      },
      async (request) => {
        const { form, website, startedAt } = request.body;
        // The spec's form carries no opening time; the honeypot and the rate limits still apply to it.
        const elapsed = startedAt === undefined ? undefined : Date.now() - Date.parse(startedAt);
        const tooFast = elapsed !== undefined && !(elapsed >= ACCESS_REQUEST_MIN_FILL_MS && elapsed <= 24 * HOUR_MS);
        if ((website ?? '').trim() !== '' || tooFast) {
          request.log.info({ honeypot: Boolean(website), elapsed }, 'access request refused as automated');
          throw new BadRequestError(ACCESS_REQUEST_MESSAGES.failure);
        }
        if (!(await createAccessRequest(db, config, form))) throw new HttpError(503, ACCESS_REQUEST_MESSAGES.failure);
        return { message: ACCESS_REQUEST_MESSAGES.success };
      },
    );
  };
