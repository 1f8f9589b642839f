import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  homeComplianceQuerySchema,
  homeComplianceSchema,
  homeCommunicationsSchema,
  homeDevicesSchema,
  homeQuerySchema,
  homeRuleMatchesSchema,
  homeWorkUnitsSchema,
} from '@cfs/contracts/home';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import {
  communicationFigures,
  complianceFigures,
  deviceFigures,
  ruleMatchFigures,
  tenantOnly,
  workUnitFigures,
} from './queries.js';

const tags = ['Home'];

/**
 * The Home dashboard's tiles (spec 000 §2 `/{tenantId}`): one call per tile, each with the view
 * permission of the area its figures come from and link to, so a caller without that permission
 * gets 403 and the page leaves the tile out. The figures read the clock (online devices, active
 * matches, overdue communications), so they are never cached. They are read on the read replica
 * when there is one.
 */
export const homeRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = () => async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/v1/home/workunits',
    {
      config: { permission: 'WorkUnits:view' },
      schema: {
        tags,
        operationId: 'getHomeWorkUnits',
        summary: "Get the home page's work unit figures",
        querystring: homeQuerySchema,
        response: { 200: homeWorkUnitsSchema },
      },
    },
    (request) =>
      request.read((reader) =>
        workUnitFigures(reader, tenantOnly(principalOf(request).tenantScope, request.query.tenantId)),
      ),
  );
  app.get(
    '/v1/home/devices',
    {
      config: { permission: 'Devices:view' },
      schema: {
        tags,
        operationId: 'getHomeDevices',
        summary: "Get the home page's device figures",
        querystring: homeQuerySchema,
        response: { 200: homeDevicesSchema },
      },
    },
    (request) =>
      request.read((reader) =>
        deviceFigures(reader, tenantOnly(principalOf(request).tenantScope, request.query.tenantId)),
      ),
  );
  app.get(
    '/v1/home/rulematches',
    {
      config: { permission: 'Rules:view' },
      schema: {
        tags,
        operationId: 'getHomeRuleMatches',
        summary: "Get the home page's rule match figures",
        querystring: homeQuerySchema,
        response: { 200: homeRuleMatchesSchema },
      },
    },
    (request) =>
      request.read((reader) =>
        ruleMatchFigures(reader, tenantOnly(principalOf(request).tenantScope, request.query.tenantId)),
      ),
  );
  app.get(
    '/v1/home/communications',
    {
      config: { permission: 'WorkUnitCommunications:view' },
      schema: {
        tags,
        operationId: 'getHomeCommunications',
        summary: "Get the home page's communication figures",
        querystring: homeQuerySchema,
        response: { 200: homeCommunicationsSchema },
      },
    },
    (request) =>
      request.read((reader) =>
        communicationFigures(reader, tenantOnly(principalOf(request).tenantScope, request.query.tenantId)),
      ),
  );
  app.get(
    '/v1/home/compliance',
    {
      config: { permission: 'Compliance:view' },
      schema: {
        tags,
        operationId: 'getHomeCompliance',
        summary: "Get the home page's compliance figures for a week",
        querystring: homeComplianceQuerySchema,
        response: { 200: homeComplianceSchema },
      },
    },
    (request) =>
      request.read((reader) =>
        complianceFigures(
          reader,
          tenantOnly(principalOf(request).tenantScope, request.query.tenantId),
          request.query.checkDate,
        ),
      ),
  );
};
