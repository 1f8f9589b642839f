import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dbIdParam } from '@cfs/contracts/fields';
import {
  categoryLookupSchema,
  subcategoryLookupSchema,
  workUnitCategoryInputSchema,
  workUnitSubcategoryInputSchema,
  workUnitTypeInputSchema,
} from '@cfs/contracts/work-unit-settings';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
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
    registerItemRoutes(app, {
      path: '/v1/workunitcategories',
      name: { operation: 'WorkUnitCategory', words: 'a work unit category' },
      area: 'WorkUnits.Categories',
      tags,
      params: numericId,
      item: categoryEntity.contract,
      input: workUnitCategoryInputSchema,
      create: (user, input) => createCategory(db, user, input),
      update: (user, { id }, input) => updateCategory(db, user, id, input),
    });

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
    registerItemRoutes(app, {
      path: '/v1/workunitsubcategories',
      name: { operation: 'WorkUnitSubcategory', words: 'a work unit subcategory' },
      area: 'WorkUnits.Subcategories',
      tags,
      params: numericId,
      item: subcategoryEntity.contract,
      input: workUnitSubcategoryInputSchema,
      create: (user, input) => createSubcategory(db, user, input),
      update: (user, { id }, input) => updateSubcategory(db, user, id, input),
    });

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
    registerItemRoutes(app, {
      path: '/v1/workunittypes',
      name: { operation: 'WorkUnitType', words: 'a work unit type' },
      area: 'WorkUnits.Types',
      tags,
      params: numericId,
      item: typeEntity.contract,
      input: workUnitTypeInputSchema,
      create: (user, input) => createType(db, user, input),
      update: (user, { id }, input) => updateType(db, user, id, input),
    });

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
