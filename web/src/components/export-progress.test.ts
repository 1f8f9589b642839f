import { describe, expect, it } from 'vitest';
import { exportingLabel } from './export-progress';

describe('export progress', () => {
  it('says "Exporting..." until the first bytes arrive, then how much has arrived', () => {
    expect(exportingLabel(0)).toBe('Exporting...');
    expect(exportingLabel(300)).toBe('Exporting... 1 kB');
    expect(exportingLabel(200 * 1024)).toBe('Exporting... 200 kB');
    expect(exportingLabel(1_468_006)).toBe('Exporting... 1.4 MB');
  });
});
