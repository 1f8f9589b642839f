import { z } from 'zod';

/**
 * One timeline of cause and effect (beyond the spec): for a work unit, or for an entity (a block,
 * a device), every record that led to or followed from it in time order — the packet a rule
 * matched, the match and the conditions that held, the action runs with their request and
 * response, the work unit created, its protocol actions, notes and state changes, and the emails.
 * Each entry names the record it stands for, so the screen can link to it.
 */
export const TIMELINE_KINDS = [
  'packet',
  'ruleMatch',
  'actionRun',
  'workUnit',
  'note',
  'stateChange',
  'protocolAction',
  'email',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  packet: 'Packet',
  ruleMatch: 'Rule match',
  actionRun: 'Action run',
  workUnit: 'Work unit',
  note: 'Note',
  stateChange: 'State change',
  protocolAction: 'Protocol action',
  email: 'Email',
};

export const timelineEntrySchema = z.object({
  /** Unique within one answer: the kind and the record's id. */
  key: z.string(),
  at: z.date(),
  kind: z.enum(TIMELINE_KINDS),
  title: z.string(),
  /** Further lines: the conditions that held, the request and the response, the note's text. */
  details: z.array(z.string()),
  /** Success or Failure for action runs and emails; null where it does not apply. */
  outcome: z.enum(['success', 'failure', 'suppressed', 'pending']).nullable(),
  /** The record: what a link opens (an entity's block or device, a rule match, an action history entry, a work unit). */
  ref: z.object({
    type: z.enum(['entity', 'ruleMatch', 'actionHistory', 'workUnit', 'note', 'email', 'rule']),
    id: z.string(),
  }),
  /** The key of the entry that caused this one, when known (a match's packet, a run's match). */
  causedBy: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelineSchema = z.object({ entries: z.array(timelineEntrySchema), truncated: z.boolean() });
export type Timeline = z.infer<typeof timelineSchema>;

/** Most entries of one kind a timeline reads (the newest). */
export const TIMELINE_LIMIT_PER_KIND = 200;
