import { defineResource, type RelationDef } from '../../odata/resource.js';

/**
 * A work unit's service level clock as a list reads it through the unit (`resolutionClock/due`):
 * when it is due while it runs, whether it runs or is paused, when it stopped, warned and
 * breached, and what it has counted of its target (business seconds).
 */
const serviceLevelClockResource = defineResource({
  table: 'service_level_timer',
  key: 'workUnitId',
  fields: {
    workUnitId: { type: 'integer' },
    targetSeconds: { type: 'integer' },
    elapsedSeconds: { type: 'number' },
    started: { type: 'datetime' },
    due: { type: 'datetime' },
    running: { type: 'boolean' },
    paused: { type: 'boolean' },
    stopped: { type: 'datetime' },
    warned: { type: 'datetime' },
    breached: { type: 'datetime' },
  },
});

/** The relations of a work unit to its two clocks (`responseClock`, `resolutionClock`). */
export const serviceLevelClockRelations = {
  responseClock: {
    kind: 'one',
    resource: () => serviceLevelClockResource,
    column: 'work_unit_id',
    relatedWhere: { kind: 'response' },
  },
  resolutionClock: {
    kind: 'one',
    resource: () => serviceLevelClockResource,
    column: 'work_unit_id',
    relatedWhere: { kind: 'resolution' },
  },
} as const satisfies Record<string, RelationDef>;
