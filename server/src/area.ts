import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Area } from '@cfs/contracts/permissions';
import type { AppDeps } from './app-deps.js';
import type { Db, Tx } from './db/database.js';
import type { FileStore } from './files/content-store.js';
import type { TaskDefinition } from './engines/jobs/task.js';
import type { BuiltInAction } from './engines/actions/run.js';

/**
 * What an area brings to the portal, declared once in its `manifest.ts` and registered with one
 * line in `server/src/areas.ts`: the HTTP app registers its routes, the change history reads its
 * audited entity types, the worker role runs its tasks.
 *
 * @example
 *   export const tokensArea = defineArea({
 *     name: 'tokens',
 *     routes: tokenRoutes,
 *     audited: { tokenGrant: 'Tokens' },
 *   });
 */
export interface AreaManifest {
  /** The spec's area name (DESIGN: workunits, tenants, tokens…). */
  readonly name: string;
  readonly routes?: (deps: AppDeps) => FastifyPluginAsyncZod;
  /** The tags the area's operations carry in the API document, each with what it holds (an area describes its own). */
  readonly apiTags?: Readonly<Record<string, string>>;
  /** Entity types the area records in the audit trail, with the area whose view permission reads their history. */
  readonly audited?: Readonly<Record<string, Area>>;
  /** The area's background tasks, run by the worker role (engines/jobs). */
  readonly tasks?: readonly TaskDefinition<unknown>[];
  /** Built-in actions the area performs, by their fixed action definition id (spec 002 §3: Create Work Unit). */
  readonly builtInActions?: Readonly<Record<string, BuiltInAction>>;
  /**
   * Rows every installation has (not only the demo), written on every start in the seed's
   * transaction: idempotent, so a second start or a second instance writes nothing twice.
   */
  readonly installationSeed?: (trx: Tx) => Promise<void>;
  /** The area's demo rows, written in the demo seed's transaction after the demo tenants exist. */
  readonly demoSeed?: (trx: Tx) => Promise<void>;
  /**
   * Files the area's demo rows point at, written on every start in demo mode (before the rows):
   * each instance and each test portal may have a file store of its own, while a database may be a copy.
   */
  readonly demoFiles?: (db: Db, files: FileStore) => Promise<void>;
}

export function defineArea(manifest: AreaManifest): AreaManifest {
  return manifest;
}

/** Every area's audited entity types in one map; two areas claiming one type is a declaration bug. */
export function auditedEntities(areas: readonly AreaManifest[]): Readonly<Record<string, Area>> {
  const entities: Record<string, Area> = {};
  for (const area of areas) {
    for (const [entityType, owner] of Object.entries(area.audited ?? {})) {
      if (entityType in entities) throw new Error(`Entity type '${entityType}' is audited by two areas`);
      entities[entityType] = owner;
    }
  }
  return entities;
}
