import { describe, expect, it } from 'vitest';
import { fileNameOf } from './api-client';

describe('fileNameOf', () => {
  it('reads the quoted file name of an attachment', () => {
    expect(fileNameOf('attachment; filename="compliance-2026-11-01.csv"')).toBe('compliance-2026-11-01.csv');
  });

  it('reads an unquoted file name', () => {
    expect(fileNameOf('attachment; filename=versionreport.csv')).toBe('versionreport.csv');
  });

  it('prefers the UTF-8 encoded name when both are given', () => {
    expect(fileNameOf(`attachment; filename="r_sum_.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`)).toBe('résumé.csv');
  });

  it('answers undefined without a header or a name', () => {
    expect(fileNameOf(null)).toBeUndefined();
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf('attachment; filename=""')).toBeUndefined();
  });
});
