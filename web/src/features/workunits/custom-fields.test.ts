import { describe, expect, it } from 'vitest';
import { customFieldDefinitions } from './custom-fields';

describe("the tenant's custom fields", () => {
  it('maps workUnitFieldN to customValueN, a text box or a dropdown limited to its options', () => {
    const fields = customFieldDefinitions({
      workUnitField1: JSON.stringify({ Name: 'Site', Type: 1 }),
      workUnitField3: JSON.stringify({ Name: 'Impact', Type: 2, Options: 'Low, Medium ,High,' }),
      workUnitField4: 'not json',
      workUnitField5: JSON.stringify({ Name: '', Type: 1 }),
      workUnitField6: JSON.stringify({ Name: 'Tier', Type: 2, Options: ' , ' }),
      workUnitField7: JSON.stringify({ Name: 'Rack', Type: 3 }),
      workUnitField8: JSON.stringify({ Name: 'x'.repeat(101), Type: 1 }),
      workUnitField9: 'null',
    });
    expect(fields).toEqual([
      { valueField: 'customValue1', name: 'Site', options: null },
      { valueField: 'customValue3', name: 'Impact', options: ['Low', 'Medium', 'High'] },
    ]);
  });
  it('has none without a tenant', () => {
    expect(customFieldDefinitions(undefined)).toEqual([]);
  });
});
