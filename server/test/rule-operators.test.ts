import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEFT_OPERANDS, OPERATORS, OPERATOR_IDS, RULE_TYPES, type OperatorId } from '@cfs/contracts/monitoring';
import { timeConditionsSchema } from '@cfs/contracts/rules';
import { compileOperator } from '../src/engines/rules/operators.js';
import {
  compileRule,
  holdsFor,
  packetEvaluator,
  type CompiledRule,
  type PacketSubject,
} from '../src/engines/rules/compile.js';
import { compileTimeWindow } from '../src/engines/rules/time-window.js';

/**
 * An oracle written apart from the engine, over a small domain whose answers are plain to state:
 * left values are numbers, numeric text, words or missing; right operands numbers or words.
 */
type Left = number | string | null | undefined;
const WORDS = ['ok', 'OK', 'Running', 'running', 'stopped', 'disk full', 'abc', ''];
const leftValues = fc.oneof(
  fc.integer({ min: -50, max: 50 }),
  fc.integer({ min: -50, max: 50 }).map(String),
  fc.constantFrom(...WORDS),
  fc.constant(null),
  fc.constant(undefined),
);
const rightValues = fc.oneof(
  fc.integer({ min: -50, max: 50 }).map(String),
  fc.constantFrom('ok', 'run', 'RUN', 'ing', 'abc', 'full'),
);

function oracle(operator: OperatorId, left: Left, right: string): boolean {
  const missing = left === null || left === undefined || left === '';
  const text = missing ? '' : String(left);
  const leftNumber =
    typeof left === 'number' ? left : typeof left === 'string' && /^-?\d+$/.test(left) ? Number(left) : undefined;
  const rightNumber = /^-?\d+$/.test(right) ? Number(right) : undefined;
  const bothNumbers = leftNumber !== undefined && rightNumber !== undefined;
  const equal = bothNumbers ? leftNumber === rightNumber : text.toLowerCase() === right.toLowerCase();
  const contains = !missing && text.toLowerCase().indexOf(right.toLowerCase()) >= 0;
  switch (operator) {
    case OPERATORS.Equals:
      return equal;
    case OPERATORS.NotEquals:
      return !equal;
    case OPERATORS.GreaterThan:
      return bothNumbers && leftNumber > rightNumber;
    case OPERATORS.LessThan:
      return bothNumbers && leftNumber < rightNumber;
    case OPERATORS.GreaterThanOrEqual:
      return bothNumbers && leftNumber >= rightNumber;
    case OPERATORS.LessThanOrEqual:
      return bothNumbers && leftNumber <= rightNumber;
    case OPERATORS.Contains:
      return contains;
    case OPERATORS.NotContains:
      return !contains;
    case OPERATORS.StartsWith:
      return !missing && text.toLowerCase().slice(0, right.length) === right.toLowerCase();
    case OPERATORS.EndsWith:
      return (
        !missing &&
        text.length >= right.length &&
        text.toLowerCase().slice(text.length - right.length) === right.toLowerCase()
      );
    case OPERATORS.Matches:
      // The words and numbers here hold no pattern characters: a pattern is then "contains, case-sensitive".
      return !missing && text.includes(right);
    case OPERATORS.NotMatches:
      return missing || !text.includes(right);
    case OPERATORS.IsEmpty:
      return missing;
    case OPERATORS.IsNotEmpty:
      return !missing;
  }
}

describe('condition operators', () => {
  it.each(
    OPERATOR_IDS.map(
      (id) => [Object.keys(OPERATORS).find((key) => OPERATORS[key as keyof typeof OPERATORS] === id)!, id] as const,
    ),
  )('%s agrees with the oracle on every generated value', (_name, operator) => {
    fc.assert(
      fc.property(
        leftValues,
        rightValues,
        (left, right) => compileOperator(operator, right)(left) === oracle(operator, left, right),
      ),
      { numRuns: 500 },
    );
  });

  it('compares numbers as numbers and text without case', () => {
    expect(compileOperator(OPERATORS.GreaterThan, '9')('10')).toBe(true);
    expect(compileOperator(OPERATORS.GreaterThan, '9')('abc')).toBe(false);
    expect(compileOperator(OPERATORS.Equals, '1.0')(1)).toBe(true);
    expect(compileOperator(OPERATORS.Equals, 'RUNNING')('running')).toBe(true);
    expect(compileOperator(OPERATORS.LessThan, '2026-01-02T00:00:00Z')('2026-01-01T12:00:00Z')).toBe(true);
  });

  it('runs Matches through RE2: a pattern that backtracks forever elsewhere answers at once, and (?i) ignores case', () => {
    const started = performance.now();
    expect(compileOperator(OPERATORS.Matches, '^(a+)+$')(`${'a'.repeat(5000)}b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(compileOperator(OPERATORS.Matches, '(?i)^disk')('DISK full')).toBe(true);
    expect(compileOperator(OPERATORS.Matches, '^disk')('DISK full')).toBe(false);
    // A pattern RE2 cannot run (a back-reference) never matches; NotMatches then holds.
    expect(compileOperator(OPERATORS.Matches, '(a)\\1')('aa')).toBe(false);
    expect(compileOperator(OPERATORS.NotMatches, '(a)\\1')('aa')).toBe(true);
  });
});

const windowOf = (time: Record<string, unknown>) => compileTimeWindow(timeConditionsSchema.parse(time));

describe('time limitations', () => {
  it('reads a daily window in its time zone, following daylight-saving changes', () => {
    const business = windowOf({ TimeZoneId: 'America/New_York', DailyStartTime: '09:00:00', DailyEndTime: '17:00:00' });
    // Winter (EST, UTC-5): 09:00 local is 14:00 UTC.
    expect(business(new Date('2026-01-14T13:59:00Z'))).toBe(false);
    expect(business(new Date('2026-01-14T14:00:00Z'))).toBe(true);
    expect(business(new Date('2026-01-14T21:59:00Z'))).toBe(true);
    expect(business(new Date('2026-01-14T22:00:00Z'))).toBe(false);
    // Summer (EDT, UTC-4): 09:00 local is 13:00 UTC.
    expect(business(new Date('2026-07-14T13:00:00Z'))).toBe(true);
    expect(business(new Date('2026-07-14T12:59:00Z'))).toBe(false);
    // The night of the spring change (8 March 2026, 02:00 → 03:00): 01:59 EST, then 03:00 EDT a minute later.
    const night = windowOf({ TimeZoneId: 'America/New_York', DailyStartTime: '03:00', DailyEndTime: '04:00' });
    expect(night(new Date('2026-03-08T06:59:00Z'))).toBe(false);
    expect(night(new Date('2026-03-08T07:00:00Z'))).toBe(true);
  });

  it('spans midnight when the end is before the start, in another zone', () => {
    const overnight = windowOf({ TimeZoneId: 'Asia/Tokyo', DailyStartTime: '22:00', DailyEndTime: '06:00' });
    expect(overnight(new Date('2026-05-01T13:30:00Z'))).toBe(true); // 22:30 Tokyo
    expect(overnight(new Date('2026-05-01T20:59:00Z'))).toBe(true); // 05:59 Tokyo
    expect(overnight(new Date('2026-05-01T21:00:00Z'))).toBe(false); // 06:00 Tokyo
  });

  it('takes days of the week and of the month on the local calendar', () => {
    // 2026-11-22 is a Sunday; 23:30 UTC Sunday is Monday 08:30 in Sydney.
    const mondays = windowOf({ TimeZoneId: 'Australia/Sydney', DaysOfWeek: [1] });
    expect(mondays(new Date('2026-11-22T23:30:00Z'))).toBe(true);
    expect(mondays(new Date('2026-11-22T10:00:00Z'))).toBe(false);
    const monthEnds = windowOf({ TimeZoneId: 'UTC', DaysOfMonth: '30,31' });
    expect(monthEnds(new Date('2026-01-31T12:00:00Z'))).toBe(true);
    expect(monthEnds(new Date('2026-02-28T12:00:00Z'))).toBe(false);
    expect(monthEnds(new Date('2026-04-30T12:00:00Z'))).toBe(true);
    expect(() => timeConditionsSchema.parse({ TimeZoneId: 'UTC', DaysOfMonth: '0,32' })).toThrow(
      'Days of month are numbers from 1 to 31',
    );
  });

  it('bounds by the date range, and reads dates before 1 Jan 2022 as empty', () => {
    const range = windowOf({ TimeZoneId: 'UTC', StartRange: '2026-06-01T00:00:00Z', EndRange: '2026-06-30T00:00:00Z' });
    expect(range(new Date('2026-05-31T23:59:59Z'))).toBe(false);
    expect(range(new Date('2026-06-15T00:00:00Z'))).toBe(true);
    expect(range(new Date('2026-07-01T00:00:00Z'))).toBe(false);
    const emptyStart = windowOf({ TimeZoneId: 'UTC', StartRange: '0001-01-01T00:00:00Z' });
    expect(emptyStart(new Date('2021-06-01T00:00:00Z'))).toBe(true);
  });
});

describe("a packet's fields as conditions read them", () => {
  const tenantId = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
  const holds = (
    LeftOperandFieldName: string,
    Operator: OperatorId,
    RightOperand: string | null,
    message: Record<string, unknown>,
  ) => {
    const rule = compileRule({
      rule_id: '00000000-0000-4000-8000-000000000001',
      name: 'field',
      tenant_id: tenantId,
      rule_type_id: RULE_TYPES.Ingestion,
      match_lifetime_seconds: 300,
      use_sliding_expiration: false,
      time_conditions: null,
      conditions: [
        {
          Type: 0,
          LeftOperand: LEFT_OPERANDS.Property.id,
          LeftOperandFieldName,
          Operator,
          RightOperand,
          OccurrencePattern: null,
        },
      ],
      match_actions: [],
      expiration_actions: [],
      closes_on: 'expiry',
      pending_seconds: 0,
      recovery_conditions: null,
    })!;
    return holdsFor(rule, {
      kind: 'packet',
      tenantId,
      entityId: 'entity',
      deviceId: null,
      timestamp: new Date(),
      message,
    });
  };

  it('read a field by its exact name first, else without regard to case', () => {
    expect(holds('BlockName', OPERATORS.Equals, 'web-1', { Properties: { BlockName: 'web-1' } })).toBe(true);
    expect(holds('blockname', OPERATORS.Equals, 'web-1', { Properties: { BLOCKNAME: 'web-1' } })).toBe(true);
    expect(
      holds('BlockName', OPERATORS.Equals, 'exact', { Properties: { blockname: 'other', BlockName: 'exact' } }),
    ).toBe(true);
    expect(holds('Zoë', OPERATORS.Equals, 'yes', { Properties: { ZOË: 'yes' } })).toBe(true);
    expect(holds('BlockName', OPERATORS.IsEmpty, null, { Properties: { BlockNames: 'web-1' } })).toBe(true);
  });

  it('read only what the packet holds: a name every object inherits is missing unless sent', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(holds(name, OPERATORS.IsEmpty, null, { Properties: { BlockName: 'web-1' } })).toBe(true);
      expect(holds(name, OPERATORS.IsNotEmpty, null, { Properties: { BlockName: 'web-1' } })).toBe(false);
    }
    expect(
      holds(
        'constructor',
        OPERATORS.Equals,
        'sent',
        JSON.parse('{"Properties":{"constructor":"sent"}}') as Record<string, unknown>,
      ),
    ).toBe(true);
  });
});

describe("a tenant's packet rules evaluated together", () => {
  // Conditions drawn from a few fields that rules share, so that many rules hold the same condition.
  const TENANTS = ['6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b', '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e'];
  const numeric = fc.integer({ min: 0, max: 6 }).map((n) => String(n * 20));
  const word = fc.constantFrom('Running', 'running', 'Stopped', 'web', 'db-1', 'b');
  const anyOperator = fc.constantFrom(...OPERATOR_IDS);
  const condition = fc.oneof(
    fc.record({
      LeftOperand: fc.constant(LEFT_OPERANDS.Metric.id),
      LeftOperandFieldName: fc.constantFrom('CpuPercent', 'MemoryPercent'),
      Operator: anyOperator,
      RightOperand: numeric,
    }),
    fc.record({
      LeftOperand: fc.constant(LEFT_OPERANDS.Value.id),
      LeftOperandFieldName: fc.constant(null),
      Operator: anyOperator,
      RightOperand: numeric,
    }),
    fc.record({
      LeftOperand: fc.constant(LEFT_OPERANDS.State.id),
      LeftOperandFieldName: fc.constant('Agent'),
      Operator: anyOperator,
      RightOperand: word,
    }),
    fc.record({
      LeftOperand: fc.constant(LEFT_OPERANDS.Property.id),
      LeftOperandFieldName: fc.constant('BlockName'),
      Operator: anyOperator,
      RightOperand: word,
    }),
    fc.record({
      LeftOperand: fc.constant(LEFT_OPERANDS.Tenant.id),
      LeftOperandFieldName: fc.constant(null),
      Operator: fc.constantFrom(OPERATORS.Equals, OPERATORS.NotEquals),
      RightOperand: fc.constantFrom(...TENANTS),
    }),
  );
  const conditions = fc.array(
    fc.tuple(condition, fc.constantFrom(0, 1)).map(([item, Type]) => ({ ...item, Type, OccurrencePattern: null })),
    { minLength: 1, maxLength: 4 },
  );
  const today = new Date().getUTCDay();
  const rule = fc.record({ conditions, offDay: fc.boolean() });
  const packet = fc.record({
    tenantId: fc.constantFrom(...TENANTS),
    message: fc.record(
      {
        Value: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.constant('n/a')),
        Metrics: fc.record(
          { CpuPercent: fc.integer({ min: 0, max: 120 }), MemoryPercent: fc.integer({ min: 0, max: 120 }) },
          { requiredKeys: [] },
        ),
        States: fc.record({ Agent: word }, { requiredKeys: [] }),
        Properties: fc.record({ BlockName: word }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
  });

  it('match exactly the rules that hold one by one, shared conditions tested once', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 12 }),
        fc.array(packet, { minLength: 1, maxLength: 10 }),
        (specs, packets) => {
          const rules = specs.map((spec, index) =>
            compileRule({
              rule_id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
              name: `Rule ${index}`,
              tenant_id: TENANTS[0]!,
              rule_type_id: RULE_TYPES.Ingestion,
              match_lifetime_seconds: 300,
              use_sliding_expiration: false,
              // A rule limited to another day of the week does not match today.
              time_conditions: spec.offDay ? { TimeZoneId: 'UTC', DaysOfWeek: [(today + 3) % 7] } : null,
              conditions: spec.conditions,
              match_actions: [],
              expiration_actions: [],
              closes_on: 'expiry',
              pending_seconds: 0,
              recovery_conditions: null,
            }),
          );
          expect(rules.every((compiled) => compiled !== undefined)).toBe(true);
          const compiled = rules as CompiledRule[];
          const evaluate = packetEvaluator(compiled);
          for (const [index, { tenantId, message }] of packets.entries()) {
            const subject: PacketSubject = {
              kind: 'packet',
              tenantId,
              entityId: `entity-${index}`,
              deviceId: null,
              timestamp: new Date(),
              message,
            };
            const oneByOne = compiled.filter(
              (candidate) => candidate.inTime(subject.timestamp) && holdsFor(candidate, subject),
            );
            expect(evaluate(subject).map((matched) => matched.ruleId)).toEqual(
              oneByOne.map((matched) => matched.ruleId),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
