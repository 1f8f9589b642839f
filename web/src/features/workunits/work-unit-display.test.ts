import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import {
  noRelatedText,
  noteLengthLevel,
  propertiesView,
  relationGroups,
  SEVERITY_COLORS,
  spacedName,
} from './work-unit-display';

describe('severity colours', () => {
  it('colour Sev0 to Sev3 and leave Sev4 plain', () => {
    expect(Object.keys(SEVERITY_COLORS)).toEqual(['0', '1', '2', '3']);
  });

  it('write every coloured cell at 4.5:1 or more against its background (WCAG AA), Sev2 included', () => {
    for (const { background, text } of Object.values(SEVERITY_COLORS))
      expect(getContrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('the note character bar', () => {
  it('is orange from 80 % and red at 100 % of 4000', () => {
    expect(noteLengthLevel(0)).toEqual({ percent: 0, color: 'primary' });
    expect(noteLengthLevel(3199).color).toBe('primary');
    expect(noteLengthLevel(3200)).toEqual({ percent: 80, color: 'warning' });
    expect(noteLengthLevel(4000)).toEqual({ percent: 100, color: 'error' });
    expect(noteLengthLevel(4100).percent).toBe(100);
  });
});

describe('the Properties tab', () => {
  it('shows "No properties found." without a JSON object', () => {
    expect(propertiesView(null)).toEqual({ kind: 'none' });
    expect(propertiesView('  ')).toEqual({ kind: 'none' });
    expect(propertiesView('not json')).toEqual({ kind: 'none' });
    expect(propertiesView('[1,2]')).toEqual({ kind: 'none' });
  });
  it('shows "does not have any additional properties" for an empty object', () => {
    expect(propertiesView('{}')).toEqual({ kind: 'empty' });
  });
  it('shows each key with its value, nested answers as rows of their own rather than JSON', () => {
    expect(
      propertiesView(
        '{"host":"db1","cpu":97,"tags":["a","b"],"person":{"fullName":"Jane","remote":true},"systems":[{"name":"ERP"},{"name":"CRM"}]}',
      ),
    ).toEqual({
      kind: 'entries',
      entries: [
        { key: 'host', value: 'db1' },
        { key: 'cpu', value: '97' },
        { key: 'tags', value: 'a, b' },
        { key: 'person › fullName', value: 'Jane' },
        { key: 'person › remote', value: 'Yes' },
        { key: 'systems 1 › name', value: 'ERP' },
        { key: 'systems 2 › name', value: 'CRM' },
      ],
    });
  });
});

describe('the Related tab', () => {
  it('groups relations by type, WorkUnit always first, at most 100 per type', () => {
    const relations = [
      { referenceId: 'm1', referenceType: 'MessageEntry' },
      ...Array.from({ length: 120 }, (_, index) => ({ referenceId: String(index + 1), referenceType: 'WorkUnit' })),
    ];
    const groups = relationGroups(relations);
    expect(groups.map((group) => [group.type, group.referenceIds.length, group.total])).toEqual([
      ['WorkUnit', 100, 120],
      ['MessageEntry', 1, 1],
    ]);
    expect(relationGroups([])).toEqual([{ type: 'WorkUnit', referenceIds: [], total: 0 }]);
  });
  it('says "No related {type}s found."', () => {
    expect(noRelatedText('WorkUnit')).toBe('No related Work Units found.');
  });
  it('shows names in words', () => {
    expect(spacedName('WorkUnitStateChange')).toBe('Work Unit State Change');
    expect(spacedName('General')).toBe('General');
  });
});
