import { z } from 'zod';
import { dbId, guid } from './fields.js';

/** Work unit categories, subcategories and types (spec 001 §3, §5, §7 Categories, §8). */
export const CATEGORY_MESSAGES = {
  categorySaveFailed: 'A problem occurred saving the category. Please try again.',
  subcategorySaveFailed: 'A problem occurred saving the subcategory. Please try again.',
  typeSaveFailed: 'A problem occurred saving the work unit type. Please try again.',
  nameRequired: 'Please enter a name.',
  typeRequired: 'Please choose a work unit type.',
  tenantRequired: 'Please choose a tenant.',
  /** Not in the spec: a tenant's category names are unique, whatever their case. */
  categoryNameTaken: 'This tenant already has a category of that name.',
} as const;

const named = z
  .string({ error: CATEGORY_MESSAGES.nameRequired })
  .trim()
  .min(1, CATEGORY_MESSAGES.nameRequired)
  .max(200);

export const workUnitCategorySchema = z.object({
  workUnitCategoryId: z.number().int(),
  name: z.string(),
  tenantId: z.uuid(),
  workUnitTypeId: z.number().int(),
  isEnabled: z.boolean(),
  isVisibleInResolutionCenter: z.boolean(),
});
export type WorkUnitCategory = z.infer<typeof workUnitCategorySchema>;

export const workUnitCategoryInputSchema = z.object({
  name: named,
  tenantId: guid(CATEGORY_MESSAGES.tenantRequired),
  workUnitTypeId: dbId(CATEGORY_MESSAGES.typeRequired),
  isEnabled: z.boolean().default(true),
  isVisibleInResolutionCenter: z.boolean().default(false),
});
export type WorkUnitCategoryInput = z.infer<typeof workUnitCategoryInputSchema>;

export const workUnitSubcategorySchema = z.object({
  workUnitSubcategoryId: z.number().int(),
  workUnitCategoryId: z.number().int(),
  name: z.string(),
  isEnabled: z.boolean(),
});
export type WorkUnitSubcategory = z.infer<typeof workUnitSubcategorySchema>;

export const workUnitSubcategoryInputSchema = z.object({
  workUnitCategoryId: dbId(),
  name: named,
  isEnabled: z.boolean().default(true),
});
export type WorkUnitSubcategoryInput = z.infer<typeof workUnitSubcategoryInputSchema>;

export const workUnitTypeSchema = z.object({
  workUnitTypeId: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
});
export type WorkUnitType = z.infer<typeof workUnitTypeSchema>;
export const workUnitTypeInputSchema = z.object({ name: named, enabled: z.boolean().default(true) });

export const categoryLookupSchema = z.object({
  workUnitCategoryId: z.number().int(),
  name: z.string(),
  tenantId: z.uuid(),
  workUnitTypeId: z.number().int(),
  isVisibleInResolutionCenter: z.boolean(),
});
export const subcategoryLookupSchema = z.object({
  workUnitSubcategoryId: z.number().int(),
  workUnitCategoryId: z.number().int(),
  name: z.string(),
});
