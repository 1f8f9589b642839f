import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { DEMO } from '../src/db/demo-ids.js';
import { createTestPortal, registeredRoutes, type TestPortal } from './harness.js';
import { createRowsOfEveryList } from './list-fixtures.js';

/*
 * List rows are described by the contract: each list route names the schema of its entity, and
 * every row it answers (all fields, no expansions) is a part of that schema, with its types.
 * New list routes are checked the day they are registered.
 */
let portal: TestPortal;
const lists: { url: string; row: z.ZodObject }[] = [];

beforeAll(async () => {
  portal = await createTestPortal();
  for (const route of await registeredRoutes(portal)) {
    const row = (route.config as { listRow?: z.ZodObject } | undefined)?.listRow;
    if (row && String(route.method) === 'GET' && !route.url.endsWith('/Export')) lists.push({ url: route.url, row });
  }
  await createRowsOfEveryList(portal, DEMO.contoso, DEMO.contosoProduction);
});
afterAll(async () => {
  await portal?.close();
});

/** JSON carries dates as ISO strings; the contract's date fields take them back as dates. */
function revive(row: Record<string, unknown>, schema: z.ZodObject): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => {
      const field = schema.shape[key];
      const isDate =
        field instanceof z.ZodDate || (field instanceof z.ZodNullable && field.unwrap() instanceof z.ZodDate);
      return [key, isDate && typeof value === 'string' ? new Date(value) : value];
    }),
  );
}

describe('list rows', () => {
  test('are parts of their contract schema, field by field, in every list route', async () => {
    expect(lists.map((list) => list.url)).toEqual(
      expect.arrayContaining(['/v1/tenants', '/v1/workunits', '/v1/tokens']),
    );
    const problems: string[] = [];
    for (const { url, row } of lists) {
      const response = await portal.as('admin', { method: 'GET', url: `${url}?$top=25` });
      expect(response.statusCode, url).toBe(200);
      const rows = response.json<{ value: Record<string, unknown>[] }>().value;
      if (rows.length === 0) problems.push(`${url}: no rows to check`);
      for (const value of rows) {
        const parsed = row.partial().strict().safeParse(revive(value, row));
        if (!parsed.success)
          problems.push(
            `${url}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
