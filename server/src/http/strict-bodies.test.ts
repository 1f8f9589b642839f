import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { jsonPatchSchema } from '@cfs/contracts/work-units';
import { strictInput } from './strict-bodies.js';

/** The unknown members zod reports, as `path.key`. */
function unknownOf(schema: z.ZodType, value: unknown): string[] {
  const result = strictInput(schema).safeParse(value);
  return (result.error?.issues ?? []).flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [],
  );
}

describe('strictInput', () => {
  test('refuses an unknown member at any depth: nested objects, list items, optional and defaulted fields', () => {
    const schema = z.object({
      name: z.string(),
      owner: z.object({ mail: z.string() }).nullable().optional(),
      items: z.array(z.object({ id: z.number() })).default([]),
    });
    expect(
      unknownOf(schema, {
        name: 'a',
        Name: 'b',
        owner: { mail: 'm', mial: 'x' },
        items: [{ id: 1 }, { id: 2, Id: 3 }],
      }),
    ).toEqual(['owner.mial', 'items.1.Id', 'Name']);
    expect(strictInput(schema).parse({ name: 'a' })).toEqual({ name: 'a', items: [] });
  });

  test('keeps refinements, error texts and transforms as declared', () => {
    const schema = z
      .object({ from: z.number(), to: z.number({ error: 'Please enter the end.' }) })
      .refine((range) => range.from <= range.to, { message: 'The end comes after the start.', path: ['to'] })
      .transform((range) => range.to - range.from);
    expect(strictInput(schema).parse({ from: 1, to: 3 })).toBe(2);
    expect(strictInput(schema).safeParse({ from: 3, to: 1 }).error?.issues[0]?.message).toBe(
      'The end comes after the start.',
    );
    expect(strictInput(schema).safeParse({ from: 3 }).error?.issues[0]?.message).toBe('Please enter the end.');
    expect(unknownOf(schema, { from: 1, to: 3, by: 1 })).toEqual(['by']);
  });

  test('walks unions, discriminated unions (a JSON Patch operation), records, lazy schemas and a preprocess', () => {
    expect(unknownOf(jsonPatchSchema, [{ op: 'replace', path: '/title', value: 'x', from: '/a' }])).toEqual(['0.from']);
    expect(unknownOf(z.union([z.object({ a: z.string() }), z.string()]), { a: 'x', b: 1 })).toEqual(['b']);
    // A record's keys are data; its values are walked.
    expect(unknownOf(z.record(z.string(), z.object({ on: z.boolean() })), { any: { on: true, off: false } })).toEqual([
      'any.off',
    ]);
    interface Node {
      name: string;
      children?: Node[];
    }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node).optional() }));
    expect(unknownOf(node, { name: 'a', children: [{ name: 'b', colour: 'red' }] })).toEqual(['children.0.colour']);
    const either = z.preprocess(
      (body) => (Array.isArray(body) ? { ids: body } : body),
      z.object({ ids: z.array(z.string()) }),
    );
    expect(strictInput(either).parse(['a'])).toEqual({ ids: ['a'] });
    expect(unknownOf(either, { ids: [], all: true })).toEqual(['all']);
  });

  test('leaves objects declared loose as they are, and makes each copy once', () => {
    const loose = z.looseObject({ Name: z.string() });
    expect(strictInput(z.object({ definition: loose })).parse({ definition: { Name: 'n', Extra: 1 } })).toEqual({
      definition: { Name: 'n', Extra: 1 },
    });
    const schema = z.object({ a: z.string() });
    expect(strictInput(schema)).toBe(strictInput(schema));
    expect(strictInput(loose)).toBe(loose);
  });
});
