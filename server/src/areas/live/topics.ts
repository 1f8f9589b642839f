import type { Area } from '@cfs/contracts/permissions';
import type { LiveTopic } from '@cfs/contracts/live';
import type { DB as Database } from '../../db/schema.js';

/**
 * What each live topic follows: the tables its screen's calls read (their change counters, the
 * ones list answers are tagged with), and the area whose view permission reads the screen.
 */
export const LIVE_TOPIC_SOURCES: Readonly<Record<LiveTopic, { area: Area; tables: readonly (keyof Database)[] }>> = {
  blocks: { area: 'Blocks', tables: ['block', 'entity_color', 'packet_latest'] },
  devices: { area: 'Devices', tables: ['device', 'packet_latest', 'location'] },
  ruleMatches: { area: 'Rules', tables: ['rule_match'] },
  workUnits: { area: 'WorkUnits', tables: ['work_unit'] },
};
