import type { Tx } from '../../db/database.js';
import { ownerPort } from '../../db/owner-port.js';

/**
 * How another area changes rules, through the rules area that owns them (db/table-owners.ts): the
 * action catalogue takes a deleted action out of the rules that run it (spec 002 §4 "Action
 * deletion"). The rules area provides it and the composition root registers it (server/src/areas.ts),
 * as the work units area's port is (engines/work-units/system-writer.ts). It runs in the caller's
 * transaction; the caller records the audit.
 */
export interface RuleWriter {
  /** Takes the action out of every tenant's rules' match and expiration actions: the rules changed. */
  removeAction(
    trx: Tx,
    actionDefinitionId: string,
    modifiedBy: string,
  ): Promise<{ rule_id: string; tenant_id: string | null; name: string }[]>;
}

const port = ownerPort<RuleWriter>('rule writer');
export const registerRuleWriter = port.provide;
export const ruleWriter = port.get;
