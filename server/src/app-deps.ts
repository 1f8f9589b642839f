import type { Area } from '@cfs/contracts/permissions';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { TokenVerifier } from './auth/verify.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { ScriptSigner } from './crypto/script-signer.js';
import type { DatabaseListener } from './db/listener.js';
import type { ChangeCounters } from './db/change-counters.js';

/** What the areas' route plugins are built with. */
export interface AppDeps {
  db: Db;
  config: Config;
  verifier: TokenVerifier;
  secretBox: SecretBox;
  /** Signs the scripts agents run (crypto/script-signer.ts). */
  scriptSigner: ScriptSigner;
  /** The instance's LISTEN connection, for areas that follow the database's announcements. */
  listener: DatabaseListener;
  /** The tables' change counters (db/change-counters.ts): list tags, and the live streams' changes. */
  changes: ChangeCounters;
  /** Every area's audited entity types, with the area whose view permission reads their history. */
  auditedEntities: Readonly<Record<string, Area>>;
}
