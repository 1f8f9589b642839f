import { describe, expect, it } from 'vitest';
import { LOCATION_MESSAGES, locationInputSchema } from './locations.js';
import { TENANT_MESSAGES, tenantInputSchema } from './tenants.js';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('required text', () => {
  it('says a missing or blank name is required, and a name too long how long it may be', () => {
    expect(messageOf(locationInputSchema.safeParse({ name: '  ', tenantId: null }))).toBe(
      LOCATION_MESSAGES.nameRequired,
    );
    expect(messageOf(locationInputSchema.safeParse({ tenantId: null }))).toBe(LOCATION_MESSAGES.nameRequired);
    expect(messageOf(locationInputSchema.safeParse({ name: 'x'.repeat(201), tenantId: null }))).toBe(
      'At most 200 characters.',
    );
    expect(locationInputSchema.safeParse({ name: ` ${'x'.repeat(200)} `, tenantId: null }).success).toBe(true);
    expect(messageOf(tenantInputSchema.safeParse({ name: 'x'.repeat(201) }))).toBe('At most 200 characters.');
    expect(messageOf(tenantInputSchema.safeParse({ name: '' }))).toBe(TENANT_MESSAGES.nameRequired);
  });
});
