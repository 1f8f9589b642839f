import type { NamedOption } from '@cfs/contracts/shell';

/** Rule types of spec 002 §3. */
export const RULE_TYPES: NamedOption[] = [
  { id: 1, name: 'Ingestion' },
  { id: 2, name: 'Correlation' },
  { id: 3, name: 'History' },
  { id: 4, name: 'WorkUnit' },
  { id: 5, name: 'Maintenance' },
  { id: 6, name: 'Aggregation' },
];

/** Condition operators of spec 002 §3. */
export const OPERATORS: NamedOption[] = [
  { id: 1, name: 'Equals' },
  { id: 2, name: 'NotEquals' },
  { id: 3, name: 'GreaterThan' },
  { id: 4, name: 'LessThan' },
  { id: 5, name: 'Contains' },
  { id: 6, name: 'GreaterThanOrEqual' },
  { id: 7, name: 'LessThanOrEqual' },
  { id: 8, name: 'Matches' },
  { id: 9, name: 'StartsWith' },
  { id: 10, name: 'EndsWith' },
  { id: 11, name: 'NotContains' },
  { id: 12, name: 'NotMatches' },
  { id: 13, name: 'IsEmpty' },
  { id: 14, name: 'IsNotEmpty' },
];

/**
 * How often a condition must hold before a rule matches. The spec names the lookup
 * (occuranceoptions) but not its values; these are the patterns the rule engine evaluates.
 */
export const OCCURRENCE_OPTIONS: NamedOption[] = [
  { id: 0, name: 'Every occurrence' },
  { id: 1, name: 'First occurrence' },
  { id: 2, name: 'Two consecutive occurrences' },
  { id: 3, name: 'Three consecutive occurrences' },
  { id: 5, name: 'Five consecutive occurrences' },
];
