import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOKEN_MESSAGES, tokenCreateSchema } from '@cfs/contracts/tokens';
import { schemaFieldErrors, schemaResolver } from './form-resolver';

const TENANT = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
const options = { fields: {}, shouldUseNativeValidation: false };

describe('schemaResolver', () => {
  it('shows a union\'s own message ("Please choose a lifetime."), not a member\'s', async () => {
    const result = await schemaResolver(tokenCreateSchema)(
      { tenantId: TENANT, name: 'agent' } as z.input<typeof tokenCreateSchema>,
      undefined,
      options,
    );
    expect(result.errors).toEqual({
      lifetimeYears: { type: 'invalid_union', message: TOKEN_MESSAGES.lifetimeRequired, ref: undefined },
    });
  });

  it('gives the parsed values when valid', async () => {
    const result = await schemaResolver(tokenCreateSchema)(
      { tenantId: TENANT, name: ' agent ', lifetimeYears: 0 },
      undefined,
      options,
    );
    expect(result).toEqual({ values: { tenantId: TENANT, name: 'agent', lifetimeYears: 0 }, errors: {} });
  });

  it('nests array paths and keeps the first message of a field', () => {
    const schema = z.object({ rows: z.array(z.object({ name: z.string().min(1, 'first').min(2, 'second') })) });
    const issues = schema.safeParse({ rows: [{ name: 'ok' }, { name: '' }] }).error?.issues ?? [];
    expect(schemaFieldErrors(issues)).toEqual({ 'rows.1.name': { type: 'too_small', message: 'first' } });
  });

  it('puts a whole-form issue on root', () => {
    const schema = z.object({ a: z.string() }).refine(() => false, 'Not like this.');
    expect(schemaFieldErrors(schema.safeParse({ a: 'x' }).error?.issues ?? [])).toEqual({
      root: { type: 'custom', message: 'Not like this.' },
    });
  });
});
