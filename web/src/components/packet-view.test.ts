import { describe, expect, it } from 'vitest';
import { formatPacketValue, humanizeName, stateColor } from './packet-view';

describe('the packet view shows values as people read them', () => {
  it('splits metric and property names into words', () => {
    expect(humanizeName('CpuPercent')).toBe('Cpu Percent');
    expect(humanizeName('disk_free_gb')).toBe('disk free gb');
    expect(humanizeName('HTTPStatus')).toBe('HTTP Status');
  });

  it('formats numbers to two decimals with grouping, percentages with %, booleans as Yes/No and nothing as a dash', () => {
    expect(formatPacketValue(1234.5678)).toBe((1234.57).toLocaleString(undefined, { maximumFractionDigits: 2 }));
    expect(formatPacketValue(37.256, 'CpuPercent')).toBe(`${(37.26).toLocaleString()} %`);
    expect(formatPacketValue(true)).toBe('Yes');
    expect(formatPacketValue(null)).toBe('—');
    expect(formatPacketValue('Running')).toBe('Running');
    expect(formatPacketValue({ a: 1 })).toBe('{"a":1}');
  });

  it('colours states: good words green, bad words red, in-between amber, others plain', () => {
    expect(stateColor('Running')).toBe('success');
    expect(stateColor(' stopped ')).toBe('error');
    expect(stateColor(false)).toBe('error');
    expect(stateColor('Degraded')).toBe('warning');
    expect(stateColor('Blue')).toBe('default');
  });
});
