import { z } from 'zod';
import { guid, optionalText, requiredText } from './fields.js';

/** Locations (spec 002 §3 Location; §5 "name required"; §7 Locations; §8). */
export const LOCATION_MESSAGES = {
  nameRequired: 'Name is required',
  usedByOtherTenants: 'Devices of other tenants are at this location: it can stay shared, or belong to their tenant.',
  saveFailed: 'A problem occurred saving the location. Please try again.',
  /** A location without a tenant is shared by every tenant: only a caller of all tenants keeps it. */
  tenantlessRefused: 'Only a user of all tenants may create or edit a location shared by every tenant.',
  saved: 'Location saved.',
} as const;

export const locationSchema = z.object({
  locationId: z.uuid(),
  name: z.string(),
  /** Null: the installation's own location, offered to every tenant. */
  tenantId: z.uuid().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  postalCode: z.string().nullable(),
  coordinates: z.string().nullable(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type Location = z.infer<typeof locationSchema>;

export const locationInputSchema = z.object({
  name: requiredText(LOCATION_MESSAGES.nameRequired, 200),
  tenantId: guid('Please choose a tenant.')
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  address1: optionalText(200),
  address2: optionalText(200),
  city: optionalText(100),
  state: optionalText(100),
  country: optionalText(100),
  postalCode: optionalText(20),
  coordinates: optionalText(100),
});
export type LocationInput = z.input<typeof locationInputSchema>;
export type LocationValues = z.output<typeof locationInputSchema>;

/** A row of `/api/generallookup/locations`: what a device form's Location choice needs. */
export const locationLookupSchema = z.object({ locationId: z.uuid(), name: z.string(), tenantId: z.uuid().nullable() });
export type LocationLookup = z.infer<typeof locationLookupSchema>;
