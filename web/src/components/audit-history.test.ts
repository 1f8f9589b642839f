import { describe, expect, it } from 'vitest';
import { describeAuditChanges } from './audit-history';

describe('describeAuditChanges', () => {
  it('shows changed fields as from → to and created values as they are', () => {
    expect(
      describeAuditChanges({
        enabled: { from: true, to: false },
        name: 'Contoso',
        description: { from: null, to: 'Lab' },
      }),
    ).toEqual(['enabled: true → false', 'name: Contoso', 'description: (empty) → Lab']);
  });
});
