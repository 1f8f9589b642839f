import { describe, expect, it } from 'vitest';
import { reasonNamesWorkUnitTypes, reasonValueText, type ReasonNames } from './match-reason-text';

const TENANT = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
const ENTITY = '6e7f8a9b-0c1d-4e2f-9a3b-5c6d7e8f9a0b';
const names: ReasonNames = {
  tenants: new Map([[TENANT, 'Contoso']]),
  workUnitTypes: new Map([['2', 'Change Request']]),
  subject: { id: ENTITY, label: 'Portal health' },
};

describe('a match reason’s values as a person reads them', () => {
  it('names the tenant, the match’s own entity and the work unit type by their names', () => {
    expect(reasonValueText('Tenant', TENANT, names)).toBe('Contoso');
    expect(reasonValueText('Entity', ENTITY, names)).toBe('Portal health');
    expect(reasonValueText('Work Unit Type', '2', names)).toBe('Change Request');
  });

  it('names severities, states and work unit events from the contracts', () => {
    expect(reasonValueText('Severity', '1', names)).toBe('Sev1');
    expect(reasonValueText('Work Unit State', '3', names)).toBe('In Progress');
    expect(reasonValueText('Work Unit Event', '12', names)).toBe('OnResponseBreach');
  });

  it('keeps an id nothing names, another entity, an entity without a block name, and every other operand’s value as it is', () => {
    const other = '11111111-2222-4333-8444-555555555555';
    expect(reasonValueText('Tenant', other, names)).toBe(other);
    expect(reasonValueText('Entity', other, names)).toBe(other);
    expect(reasonValueText('Entity', ENTITY, { ...names, subject: { id: ENTITY, label: null } })).toBe(ENTITY);
    expect(reasonValueText('Work Unit State', '42', names)).toBe('42');
    expect(reasonValueText('Metrics.CpuPercent', '3', names)).toBe('3');
    expect(reasonValueText('Properties.BlockName', TENANT, names)).toBe(TENANT);
  });

  it('asks for the work unit types only when a condition reads one', () => {
    expect(reasonNamesWorkUnitTypes(['Tenant', 'Work Unit Type'])).toBe(true);
    expect(reasonNamesWorkUnitTypes(['Tenant', 'Metrics.CpuPercent'])).toBe(false);
  });
});
