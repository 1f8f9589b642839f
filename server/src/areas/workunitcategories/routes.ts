import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dbIdParam } from '@cfs/contracts/fields';
import {
  categoryLookupSchema,
  subcategoryLookupSchema,
  workUnitCategoryInputSchema,
  workUnitCategorySchema,
  workUnitSubcategoryInputSchema,
  workUnitSubcategorySchema,
  workUnitTypeInputSchema,
  workUnitTypeSchema,
} from '@cfs/contracts/work-unit-settings';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import {
  createCategory,
  createSubcategory,
  createType,
  findCategoryLookups,
  findSubcategoryLookups,
  updateCategory,
  updateSubcategory,
  updateType,
} from './commands.js';
import { categoryEntity, subcategoryEntity, typeEntity } from './resources.js';

const tags = ['Work unit settings'];
const numericId = z.object({ id: dbIdParam });

/** Work unit categories, subcategories and types (spec 001 §7 Categories). */
export const workUnitCategoryRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/workunitcategories',
      title: 'work unit categories',
      resource: categoryEntity.resource,
      row: categoryEntity.contract,
      permission: 'WorkUnits.Categories:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('work_unit_category').selectAll(),
      exportFileName: 'workunitcategories.csv',
      tags,
    });
    app.put(
      '/v1/workunitcategories',
      {
        config: { permission: 'WorkUnits.Categories:create' },
        schema: {
          tags,
          operationId: 'createWorkUnitCategory',
          summary: 'Create a work unit category',
          body: workUnitCategoryInputSchema,
          response: { 200: workUnitCategorySchema },
        },
      },
      async (request) => createCategory(db, principalOf(request), request.body),
    );
    app.post(
      '/v1/workunitcategories/:id',
      {
        config: { permission: 'WorkUnits.Categories:edit' },
        schema: {
          tags,
          operationId: 'updateWorkUnitCategory',
          summary: 'Update a work unit category',
          params: numericId,
          body: workUnitCategoryInputSchema,
          response: { 200: workUnitCategorySchema },
        },
      },
      async (request) => updateCategory(db, principalOf(request), request.params.id, request.body),
    );

    registerListRoutes(app, db, {
      path: '/v1/workunitsubcategories',
      title: 'work unit subcategories',
      resource: subcategoryEntity.resource,
      row: subcategoryEntity.contract,
      permission: 'WorkUnits.Subcategories:view',
      base: (user) =>
        db
          .selectFrom('work_unit_subcategory')
          .selectAll()
          .where(
            'work_unit_category_id',
            'in',
            scoped(db, user.tenantScope).selectFrom('work_unit_category').select('work_unit_category_id'),
          ),
      exportFileName: 'workunitsubcategories.csv',
      tags,
    });
    app.put(
      '/v1/workunitsubcategories',
      {
        config: { permission: 'WorkUnits.Subcategories:create' },
        schema: {
          tags,
          operationId: 'createWorkUnitSubcategory',
          summary: 'Create a work unit subcategory',
          body: workUnitSubcategoryInputSchema,
          response: { 200: workUnitSubcategorySchema },
        },
      },
      async (request) => createSubcategory(db, principalOf(request), request.body),
    );
    app.post(
      '/v1/workunitsubcategories/:id',
      {
        config: { permission: 'WorkUnits.Subcategories:edit' },
        schema: {
          tags,
          operationId: 'updateWorkUnitSubcategory',
          summary: 'Update a work unit subcategory',
          params: numericId,
          body: workUnitSubcategoryInputSchema,
          response: { 200: workUnitSubcategorySchema },
        },
      },
      async (request) => updateSubcategory(db, principalOf(request), request.params.id, request.body),
    );

    registerListRoutes(app, db, {
      path: '/v1/workunittypes',
      title: 'work unit types',
      resource: typeEntity.resource,
      row: typeEntity.contract,
      permission: 'WorkUnits.Types:view',
      base: () => db.selectFrom('work_unit_type').selectAll(),
      exportFileName: 'workunittypes.csv',
      tags,
    });
    app.put(
      '/v1/workunittypes',
      {
        config: { permission: 'WorkUnits.Types:create' },
        schema: {
          tags,
          operationId: 'createWorkUnitType',
          summary: 'Create a work unit type',
          body: workUnitTypeInputSchema,
          response: { 200: workUnitTypeSchema },
        },
      },
      async (request) => createType(db, principalOf(request), request.body),
    );
    app.post(
      '/v1/workunittypes/:id',
      {
        config: { permission: 'WorkUnits.Types:edit' },
        schema: {
          tags,
          operationId: 'updateWorkUnitType',
          summary: 'Update a work unit type',
          params: numericId,
          body: workUnitTypeInputSchema,
          response: { 200: workUnitTypeSchema },
        },
      },
      async (request) => updateType(db, principalOf(request), request.params.id, request.body),
    );

    // Spelled so in the spec (001 §7).
    app.get(
      '/api/generallookup/workunitcatgories',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags: ['Lookups'],
          operationId: 'lookupWorkUnitCategories',
          summary: 'List the enabled work unit categories',
          description: 'Of the tenants the caller may work in. The path keeps the spec\'s spelling, "catgories".',
          response: { 200: z.array(categoryLookupSchema) },
        },
      },
      async (request) => findCategoryLookups(db, principalOf(request).tenantScope),
    );
    app.get(
      '/api/generallookup/workunitsubcatgories',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags: ['Lookups'],
          operationId: 'lookupWorkUnitSubcategories',
          summary: 'List the enabled work unit subcategories',
          description: 'Of the tenants the caller may work in. The path keeps the spec\'s spelling, "subcatgories".',
          response: { 200: z.array(subcategoryLookupSchema) },
        },
      },
      async (request) => findSubcategoryLookups(db, principalOf(request).tenantScope),
    );
  };
