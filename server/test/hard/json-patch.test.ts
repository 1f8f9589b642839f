import fc from 'fast-check';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONTROL_STATUSES, MAX_CONTROL_NOTES } from '@cfs/contracts/compliance';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { DEMO } from '../../src/db/demo-ids.js';
import { reportFigures } from '../figures.js';
import { createTestPortal, registeredRoutes, type TestPortal } from '../harness.js';

/*
 * Every PATCH route takes a JSON Patch (RFC 6902) of an entity's editable state. Generated patch
 * documents, mixing valid changes with failing tests, unresolvable paths, refused values and
 * paths into ids, the tenant, audit stamps and prototypes, are sent as a Contoso operator: a patch
 * that fails leaves the row (and its history and audit) as it was, a forbidden path is refused,
 * nothing answers 5xx. Then 50 editors change one unit at once, each patch carrying a `test` of
 * the value it was made from, as the web sends it: one success per version, no update lost.
 */

const { applyOperation, compare, deepClone } = fastJsonPatch;
const USER = 'operator';
const RUNS = { workUnit: 600, controlStatus: 400 };
const EDITORS = 50;

let portal: TestPortal;
/** The PATCH routes of the route table: each must be a target below. */
const patchRoutes: string[] = [];
beforeAll(async () => {
  portal = await createTestPortal();
  for (const route of await registeredRoutes(portal)) if (String(route.method) === 'PATCH') patchRoutes.push(route.url);
});
afterAll(async () => {
  await portal?.close();
});

const patch = (url: string, operations: unknown) =>
  portal.as(USER, {
    method: 'PATCH',
    url,
    payload: JSON.stringify(operations),
    headers: { 'content-type': 'application/json-patch+json' },
  });

/**
 * What one generated operation is: `valid` (a change the rules accept, or a `test` of the value the
 * field holds at that point), `failingTest` (a `test` of another value), `invalid` (a path or value
 * the patch cannot apply or the rules refuse) or `forbidden` (a path the caller may never write).
 */
type Kind = 'valid' | 'failingTest' | 'invalid' | 'forbidden';
/** An operation made against the document as the patch has changed it so far. */
type Step = { kind: Kind; make: (document: Record<string, unknown>) => Operation };

interface Target {
  /** The entity patched, e.g. `work unit`. */
  name: string;
  url: string;
  /** The editable document as the server holds it, the one a patch is applied to. */
  document: () => Promise<Record<string, unknown>>;
  /** Everything a patch could change: the row, its history and its audit, as comparable text. */
  snapshot: () => Promise<string>;
  /** What no patch may change, even one that succeeds: the ids, the tenant, the creation stamps. */
  fixed: () => Promise<string>;
  /** Valid changes, tests that pass or fail, and writes of forbidden paths, in any order. */
  steps: fc.Arbitrary<Step>;
  /** An operation the patch cannot apply or whose value the rules refuse: last, so no later operation undoes it. */
  invalid: fc.Arbitrary<Step>;
}

const OP_VERBS = ['add', 'replace', 'remove', 'copy', 'move'] as const;
/** A write of `path` by any operation: with a value, as a move's or copy's target, or removed. */
const writeOf = (path: string, value: unknown, from: string): fc.Arbitrary<Step> =>
  fc.constantFrom(...OP_VERBS).map((op): Step => ({
    kind: 'forbidden',
    make: (): Operation => {
      if (op === 'remove') return { op, path };
      if (op === 'copy' || op === 'move') return { op, from, path };
      return { op, path, value };
    },
  }));

/** A `test` of the value the field holds now (it passes), or of another value (it fails). */
function tests(fields: readonly string[]): fc.Arbitrary<Step> {
  return fc.record({ field: fc.constantFrom(...fields), passes: fc.boolean() }).map(({ field, passes }): Step => ({
    kind: passes ? 'valid' : 'failingTest',
    make: (document) => {
      const current = document[field] ?? null;
      return { op: 'test', path: `/${field}`, value: passes ? current : otherThan(current) };
    },
  }));
}

function otherThan(value: unknown): unknown {
  if (typeof value === 'string') return `${value}≠`;
  if (typeof value === 'number') return value + 1000;
  if (typeof value === 'boolean') return !value;
  return value === null ? 'not null' : null;
}

const constantStep = (kind: Kind, operation: Operation): fc.Arbitrary<Step> =>
  fc.constant({ kind, make: () => operation });
/** Text as editors type it and as attackers send it: any code point, quotes, markup, long runs. */
const anyText = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom('', ' ', '"; DROP TABLE work_unit; --', '<script>x</script>', '{"__proto__":{"polluted":1}}'),
  );

/** Paths into the prototype of the document or of a value in it, by every operation. */
const PROTOTYPE_PATHS = [
  '/__proto__/polluted',
  '/__proto__',
  '/constructor/prototype/polluted',
  '/constructor',
  '/relations/__proto__/polluted',
  '/relations/0/__proto__/polluted',
  '/title/__proto__/polluted',
  '/properties/constructor/prototype/polluted',
];

function workUnitTarget(workUnitId: number, tenantId: string): Target {
  const url = `/v1/workunits/${workUnitId}`;
  const textFields = [
    'description',
    'resolution',
    'assignedTo',
    'assignmentGroup',
    'source',
    'referenceId',
    'stakeHolderFullName',
    'implementationPlan',
  ];
  const valid: fc.Arbitrary<Step>[] = [
    fc
      .string({ minLength: 3, maxLength: 60 })
      .filter((title) => title.trim().length >= 3)
      .map((title): Step => ({ kind: 'valid', make: () => ({ op: 'replace', path: '/title', value: title }) })),
    fc
      .record({ field: fc.constantFrom(...textFields), value: fc.option(fc.string({ maxLength: 80 }), { nil: null }) })
      .map(({ field, value }): Step => ({ kind: 'valid', make: () => ({ op: 'replace', path: `/${field}`, value }) })),
    fc
      .option(
        fc
          .dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer()))
          .map((properties) => JSON.stringify(properties)),
        { nil: null },
      )
      .map((properties): Step => ({
        kind: 'valid',
        make: () => ({ op: 'replace', path: '/properties', value: properties }),
      })),
    fc.integer({ min: 0, max: 4 }).map((severityId): Step => ({
      kind: 'valid',
      make: () => ({ op: 'replace', path: '/severityId', value: severityId }),
    })),
    fc
      .record({ referenceId: fc.constantFrom('1', '2', '3'), referenceType: fc.constantFrom('WorkUnit', 'Device') })
      .map((relation): Step => ({ kind: 'valid', make: () => ({ op: 'add', path: '/relations/-', value: relation }) })),
    fc
      .constantFrom(...textFields)
      .map((field): Step => ({ kind: 'valid', make: () => ({ op: 'copy', from: '/title', path: `/${field}` }) })),
    tests(['title', 'severityId', 'stateId', 'tenantId', ...textFields]),
  ];
  const invalid: fc.Arbitrary<Step>[] = [
    constantStep('invalid', { op: 'replace', path: '/title', value: '' }),
    constantStep('invalid', { op: 'replace', path: '/title', value: 'x'.repeat(401) }),
    constantStep('invalid', { op: 'remove', path: '/title' }),
    constantStep('invalid', { op: 'replace', path: '/severityId', value: 'high' }),
    constantStep('invalid', { op: 'replace', path: '/stateId', value: 99 }),
    constantStep('invalid', { op: 'replace', path: '/workUnitTypeId', value: -5 }),
    constantStep('invalid', {
      op: 'replace',
      path: '/relations/497',
      value: { referenceId: '1', referenceType: 'WorkUnit' },
    }),
    constantStep('invalid', { op: 'remove', path: '/relations/498' }),
    constantStep('invalid', { op: 'replace', path: '/title/x/y', value: 'deep' }),
    constantStep('invalid', { op: 'move', from: '/nowhere', path: '/title' }),
    constantStep('invalid', { op: 'replace', path: '/description', value: { nested: ['object'] } }),
    constantStep('invalid', { op: 'replace', path: '/description', value: 'nul \u0000 inside' }),
    constantStep('invalid', { op: 'replace', path: '/description', value: 'x'.repeat(4001) }),
    constantStep('invalid', { op: 'replace', path: '/stakeHolderEmailAddress', value: 'not an address' }),
    constantStep('invalid', { op: 'replace', path: '/workUnitCategoryId', value: 2_000_000_000 }),
    constantStep('invalid', { op: 'replace', path: '/properties', value: '[1, 2]' }),
    constantStep('invalid', { op: 'replace', path: '/decision1Notes', value: 'decided by someone else' }),
    constantStep('invalid', { op: 'replace', path: '/title', value: null }),
  ];
  const forbidden: fc.Arbitrary<Step>[] = [
    ...[
      '/workUnitId',
      '/publicWorkUnitId',
      '/internalWorkUnitId',
      '/created',
      '/createdBy',
      '/modified',
      '/modifiedBy',
      '/resolved',
      '/tenant',
      '/tenant/name',
      '/tenant_id',
      '/created_by',
      '/modified_by',
    ].map((path) => writeOf(path, path.endsWith('Id') ? 1 : 'intruder', '/description')),
    // The unit's tenant may change, but only to one of the caller's tenants.
    constantStep('forbidden', { op: 'replace', path: '/tenantId', value: DEMO.fabrikam }),
    constantStep('forbidden', { op: 'replace', path: '/tenantId', value: crypto.randomUUID() }),
    ...PROTOTYPE_PATHS.map((path) => writeOf(path, 'polluted', '/description')),
    fc
      .constantFrom(...PROTOTYPE_PATHS)
      .map((from): Step => ({ kind: 'forbidden', make: () => ({ op: 'copy', from, path: '/title' }) })),
  ];
  return {
    name: 'work unit',
    url,
    async document() {
      const response = await portal.as(USER, { method: 'GET', url });
      if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode}`);
      return response.json<Record<string, unknown>>();
    },
    async snapshot() {
      const { rows } = await sql<{ state: unknown }>`
        SELECT json_build_array(
          (SELECT to_jsonb(u) FROM work_unit u WHERE work_unit_id = ${workUnitId}),
          (SELECT json_agg(r ORDER BY r.reference_type, r.reference_id) FROM (SELECT reference_type, reference_id FROM work_unit_relation WHERE work_unit_id = ${workUnitId}) r),
          (SELECT count(*) FROM work_unit_event WHERE work_unit_id = ${workUnitId}),
          (SELECT count(*) FROM work_unit_note WHERE work_unit_id = ${workUnitId}),
          (SELECT count(*) FROM audit_event WHERE tenant_id = ${tenantId})) AS state`.execute(portal.db);
      return JSON.stringify(rows[0]?.state);
    },
    async fixed() {
      const row = await portal.db
        .selectFrom('work_unit')
        .select(['work_unit_id', 'public_work_unit_id', 'internal_work_unit_id', 'tenant_id', 'created', 'created_by'])
        .where('work_unit_id', '=', workUnitId)
        .executeTakeFirst();
      return JSON.stringify(row);
    },
    steps: fc.oneof({ arbitrary: fc.oneof(...valid), weight: 4 }, { arbitrary: fc.oneof(...forbidden), weight: 1 }),
    invalid: fc.oneof(...invalid),
  };
}

function controlStatusTarget(controlStatusId: string, tenantId: string): Target {
  const url = `/v1/controlstatuses/${controlStatusId}`;
  const valid: fc.Arbitrary<Step>[] = [
    fc
      .constantFrom(...CONTROL_STATUSES)
      .map((status): Step => ({ kind: 'valid', make: () => ({ op: 'replace', path: '/status', value: status }) })),
    anyText(200)
      .filter((notes) => !notes.includes('\u0000'))
      .map((notes): Step => ({ kind: 'valid', make: () => ({ op: 'replace', path: '/notes', value: notes }) })),
    tests(['status', 'notes', 'tenantId', 'controlId', 'checkDate', 'id']),
  ];
  const invalid: fc.Arbitrary<Step>[] = [
    constantStep('invalid', { op: 'replace', path: '/status', value: 'Bogus' }),
    constantStep('invalid', { op: 'replace', path: '/status', value: null }),
    constantStep('invalid', { op: 'remove', path: '/notes' }),
    constantStep('invalid', { op: 'replace', path: '/notes', value: 'x'.repeat(MAX_CONTROL_NOTES + 1) }),
    constantStep('invalid', { op: 'replace', path: '/notes', value: 'nul \u0000 inside' }),
    constantStep('invalid', { op: 'replace', path: '/notes', value: 42 }),
    constantStep('invalid', { op: 'replace', path: '/notes/x', value: 'deep' }),
    constantStep('invalid', { op: 'replace', path: 'notes', value: 'no slash' }),
    constantStep('invalid', { op: 'replace', path: '', value: {} }),
    constantStep('invalid', { op: 'move', from: '/nowhere', path: '/notes' }),
  ];
  const forbidden: fc.Arbitrary<Step>[] = [
    ...[
      '/id',
      '/tenantId',
      '/controlId',
      '/checkDate',
      '/created',
      '/createdBy',
      '/modified',
      '/modifiedBy',
      '/tenant_id',
      '/control_status_id',
    ].map((path) => writeOf(path, path === '/tenantId' ? DEMO.fabrikam : 'intruder', '/notes')),
    ...PROTOTYPE_PATHS.map((path) => writeOf(path, 'polluted', '/notes')),
    fc
      .constantFrom(...PROTOTYPE_PATHS)
      .map((from): Step => ({ kind: 'forbidden', make: () => ({ op: 'copy', from, path: '/notes' }) })),
  ];
  return {
    name: 'control status',
    url,
    // The document the server patches (there is no read of one record): its date as the API writes it.
    async document() {
      const row = await portal.db
        .selectFrom('control_status')
        .select([
          'control_status_id',
          'tenant_id',
          'control_id',
          'status',
          'notes',
          sql<string>`to_char(check_date, 'YYYY-MM-DD')`.as('check_date'),
        ])
        .where('control_status_id', '=', controlStatusId)
        .executeTakeFirstOrThrow();
      return {
        id: row.control_status_id,
        checkDate: row.check_date,
        status: row.status,
        notes: row.notes,
        tenantId: row.tenant_id,
        controlId: row.control_id,
      };
    },
    async snapshot() {
      const { rows } = await sql<{ state: unknown }>`
        SELECT json_build_array(
          (SELECT to_jsonb(s) FROM control_status s WHERE control_status_id = ${controlStatusId}),
          (SELECT count(*) FROM audit_event WHERE tenant_id = ${tenantId})) AS state`.execute(portal.db);
      return JSON.stringify(rows[0]?.state);
    },
    async fixed() {
      const row = await portal.db
        .selectFrom('control_status')
        .select(['control_status_id', 'tenant_id', 'control_id', 'check_date', 'created', 'created_by'])
        .where('control_status_id', '=', controlStatusId)
        .executeTakeFirst();
      return JSON.stringify(row);
    },
    steps: fc.oneof({ arbitrary: fc.oneof(...valid), weight: 4 }, { arbitrary: fc.oneof(...forbidden), weight: 1 }),
    invalid: fc.oneof(...invalid),
  };
}

const figures = { runs: 0, changedByFailure: 0, forbiddenAccepted: 0, serverErrors: 0 };
const problems: string[] = [];
const note = (problem: string) => {
  if (problems.length < 10) problems.push(problem);
};

/** Sends one generated patch and judges the answer and the row. */
async function runPatch(target: Target, steps: Step[]): Promise<void> {
  figures.runs += 1;
  const document = await target.document();
  // Each operation is made against the document as the operations before it leave it, as an
  // editor's diff is: a `test` then sees the value it compares.
  const local = deepClone(document) as Record<string, unknown>;
  const operations: Operation[] = [];
  let applies = true;
  // A `test` made after an operation the server refuses may fail there first: 409 is right too.
  let mayConflict = false;
  for (const step of steps) {
    const operation = step.make(local);
    operations.push(operation);
    if (!applies && operation.op === 'test') mayConflict = true;
    if (step.kind !== 'valid') applies = false;
    if (applies) applyOperation(local, deepClone(operation) as Operation, false, true);
  }
  const kinds = new Set(steps.map((step) => step.kind));
  const [before, fixedBefore] = [await target.snapshot(), await target.fixed()];
  const response = await patch(target.url, operations);
  const [after, fixedAfter] = [await target.snapshot(), await target.fixed()];
  const shown = `${target.name} ${JSON.stringify(operations).slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
  if (response.statusCode >= 500) {
    figures.serverErrors += 1;
    note(`5xx: ${shown}`);
  }
  if (fixedAfter !== fixedBefore) {
    figures.forbiddenAccepted += 1;
    note(`an id, the tenant or a creation stamp changed: ${shown}`);
  }
  if (applies) {
    if (response.statusCode !== 200) note(`a valid patch was refused: ${shown}`);
    return;
  }
  if (response.statusCode < 300) {
    if (kinds.has('forbidden')) figures.forbiddenAccepted += 1;
    note(`a failing patch was accepted: ${shown}`);
  }
  // A failed `test` answers 409 (spec 001 §8) unless an operation the route refuses outright comes with it.
  const expected = kinds.has('failingTest') || mayConflict ? [400, 409] : [400];
  if (response.statusCode < 500 && !expected.includes(response.statusCode))
    note(`expected ${expected.join(' or ')}: ${shown}`);
  if (after !== before) {
    figures.changedByFailure += 1;
    note(`the row changed after a failed patch: ${shown}`);
  }
}

async function createWorkUnit(description: string): Promise<number> {
  const created = await portal.as(USER, {
    method: 'PUT',
    url: '/api/v1/workunits',
    payload: {
      workUnitId: -1,
      title: 'Patched unit',
      description,
      severityId: 2,
      stateId: WORK_UNIT_STATES.New,
      tenantId: DEMO.contoso,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
    },
  });
  if (created.statusCode !== 200) throw new Error(`work unit: ${created.statusCode} ${created.body}`);
  return created.json<{ workUnitId: number }>().workUnitId;
}

describe('JSON Patch on every PATCH route', () => {
  const concurrency = { successes: 0, lostUpdates: 0, serverErrors: 0 };

  test('a patch that fails leaves the row unchanged and a forbidden path is refused, over generated patches', async () => {
    expect(patchRoutes.sort()).toEqual(['/v1/controlstatuses/:id', '/v1/workunits/:id']);
    const unit = workUnitTarget(await createWorkUnit('Before any patch'), DEMO.contoso);
    const control = await portal.db
      .selectFrom('control')
      .innerJoin('control_set', 'control_set.control_set_id', 'control.control_set_id')
      .select('control.control_id')
      .where('control_set.name', '=', 'NIST SP 800-53 Rev. 5 Moderate baseline')
      .where('control.name', '=', 'AC-2')
      .executeTakeFirstOrThrow();
    const status = await portal.as(USER, {
      method: 'POST',
      url: '/v1/controlstatuses',
      payload: {
        checkDate: '2026-03-11',
        status: 'NonCompliant',
        tenantId: DEMO.contoso,
        controlId: control.control_id,
      },
    });
    expect(status.statusCode, status.body).toBe(200);
    const controlStatus = controlStatusTarget(status.json<{ id: string }>().id, DEMO.contoso);
    for (const [target, numRuns] of [
      [unit, RUNS.workUnit],
      [controlStatus, RUNS.controlStatus],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(
          fc.array(target.steps, { maxLength: 5 }),
          fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: target.invalid, weight: 1 }),
          async (steps, last) => {
            await runPatch(target, last ? [...steps, last] : steps);
          },
        ),
        { numRuns },
      );
    }
    // Whatever a patch named, nothing reached the prototypes of this process's objects.
    if (Object.hasOwn(Object.prototype, 'polluted') || Object.hasOwn(Array.prototype, 'polluted'))
      figures.forbiddenAccepted += 1;
    expect(problems).toEqual([]);
    expect(figures).toEqual({
      runs: RUNS.workUnit + RUNS.controlStatus,
      changedByFailure: 0,
      forbiddenAccepted: 0,
      serverErrors: 0,
    });
  });

  test('50 editors patching one unit at once: one success per version, no update lost', async () => {
    const workUnitId = await createWorkUnit('Edits:');
    const url = `/v1/workunits/${workUnitId}`;
    /** How many patches succeeded on top of each version (the description they tested). */
    const successesByVersion = new Map<string, number>();
    const applied: { from: string; to: string }[] = [];
    const editor = async (index: number) => {
      // Each editor re-reads after a conflict and sends its change again, as a person would.
      for (let attempt = 0; attempt < EDITORS * 2; attempt++) {
        const current = (await portal.as(USER, { method: 'GET', url })).json<{ description: string }>().description;
        const next = `${current} e${index};`;
        const response = await patch(url, compare({ description: current }, { description: next }, true));
        if (response.statusCode === 200) {
          successesByVersion.set(current, (successesByVersion.get(current) ?? 0) + 1);
          applied.push({ from: current, to: next });
          return;
        }
        if (response.statusCode >= 500) concurrency.serverErrors += 1;
        if (response.statusCode !== 409) throw new Error(`editor ${index}: ${response.statusCode} ${response.body}`);
      }
      throw new Error(`editor ${index} never got its change in`);
    };
    await Promise.all(Array.from({ length: EDITORS }, (_, index) => editor(index)));
    const final =
      (
        await portal.db
          .selectFrom('work_unit')
          .select('description')
          .where('work_unit_id', '=', workUnitId)
          .executeTakeFirstOrThrow()
      ).description ?? '';
    concurrency.successes = applied.length;
    concurrency.lostUpdates = Array.from({ length: EDITORS }, (_, index) => index).filter(
      (index) => !final.includes(` e${index};`),
    ).length;
    expect([...successesByVersion.values()].every((count) => count === 1)).toBe(true);
    // The final state is the successful patches applied one after the other, from the first version.
    const chain = [...applied].sort((a, b) => a.from.length - b.from.length);
    expect(chain[0]?.from).toBe('Edits:');
    expect(chain.every((step, i) => i === 0 || step.from === chain[i - 1]!.to)).toBe(true);
    expect(chain.at(-1)?.to).toBe(final);
    expect(concurrency).toEqual({ successes: EDITORS, lostUpdates: 0, serverErrors: 0 });
  });

  afterAll(() => {
    reportFigures('json patch', {
      'property runs': figures.runs,
      'rows changed by a failed patch': figures.changedByFailure,
      'forbidden paths accepted': figures.forbiddenAccepted,
      'concurrent patches': EDITORS,
      successes: concurrency.successes,
      'lost updates': concurrency.lostUpdates,
      '5xx': figures.serverErrors + concurrency.serverErrors,
    });
  });
});
