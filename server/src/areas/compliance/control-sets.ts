import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  COMPLIANCE_MESSAGES,
  MAX_CONTROLS,
  controlSetFileSchema,
  type ControlSetFile,
  type ControlSetSummary,
} from '@cfs/contracts/compliance';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS, canAccessTenant } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, HttpError, NotFoundError } from '../../http/errors.js';

/** The control sets every installation ships with (NIST SP 800-53 Rev. 5 Low and Moderate baselines, public domain). */
const SHIPPED_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'seed-data', 'control-sets');
const SHIPPED_FILES = ['nist-800-53-rev5-low.json', 'nist-800-53-rev5-moderate.json'];

const MAX_TEXT = { name: 200, family: 200, title: 500, id: 50, description: 20_000, source: 2000 } as const;

/**
 * An OSCAL catalog, as far as a control set needs it: its title, and its groups (the families)
 * with their controls; a control's enhancements are nested in its own `controls`, and its
 * statement is the prose of its `statement` part and that part's sub-parts.
 */
interface OscalPart {
  name?: unknown;
  prose?: unknown;
  parts?: unknown;
  props?: unknown;
}
interface OscalControl {
  id?: unknown;
  title?: unknown;
  parts?: unknown;
  props?: unknown;
  controls?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An OSCAL control's printed label ("AC-2(1)") from its props, else its id upper-cased ("ac-2.1" → "AC-2(1)"). */
function oscalLabel(control: OscalControl): string {
  for (const prop of asArray(control.props)) {
    if (isRecord(prop) && prop.name === 'label' && typeof prop.value === 'string' && prop.class !== 'zero-padded')
      return prop.value;
  }
  const id = text(control.id);
  const [base = '', ...enhancements] = id.split('.');
  return base.toUpperCase() + enhancements.map((n) => `(${n})`).join('');
}

function partLabel(part: OscalPart): string {
  for (const prop of asArray(part.props))
    if (isRecord(prop) && prop.name === 'label' && typeof prop.value === 'string') return `${prop.value} `;
  return '';
}

function proseOf(part: OscalPart, depth: number): string[] {
  const own = text(part.prose).trim();
  const lines = own ? [`${'  '.repeat(depth)}${partLabel(part)}${own}`] : [];
  for (const child of asArray(part.parts)) if (isRecord(child)) lines.push(...proseOf(child, depth + (own ? 1 : 0)));
  return lines;
}

function oscalStatement(control: OscalControl): string {
  const statement = asArray(control.parts).find((part) => isRecord(part) && part.name === 'statement');
  return isRecord(statement) ? proseOf(statement, 0).join('\n') : '';
}

function fromOscal(catalog: Record<string, unknown>): ControlSetFile {
  const metadata = isRecord(catalog.metadata) ? catalog.metadata : {};
  const controls: ControlSetFile['controls'] = [];
  const walk = (list: unknown, family: string) => {
    for (const item of asArray(list)) {
      if (!isRecord(item)) continue;
      const control = item as OscalControl;
      controls.push({
        id: oscalLabel(control),
        family,
        title: text(control.title),
        description: oscalStatement(control),
      });
      walk(control.controls, family);
    }
  };
  for (const group of asArray(catalog.groups)) if (isRecord(group)) walk(group.controls, text(group.title));
  // A catalog may hold controls outside any group: their family is the catalog's title.
  walk(catalog.controls, text(metadata.title));
  const version = text(metadata.version);
  return {
    name: text(metadata.title),
    description: version ? `Version ${version}` : null,
    source: `OSCAL catalog${text(catalog.uuid) ? ` ${text(catalog.uuid)}` : ''}${text(metadata['last-modified']) ? `, last modified ${text(metadata['last-modified'])}` : ''}`,
    controls,
  };
}

/** The control set a file describes, checked: a clear 400 for anything else (never a 500, nothing written). */
export function parseControlSetFile(body: unknown): ControlSetFile {
  const fail = (message: string, errors?: Record<string, string[]>): never => {
    throw new BadRequestError(COMPLIANCE_MESSAGES.uploadFailed, errors ?? { file: [message] });
  };
  let file: ControlSetFile;
  if (isRecord(body) && isRecord(body.catalog)) {
    file = fromOscal(body.catalog);
  } else {
    const parsed = controlSetFileSchema.safeParse(body);
    if (!parsed.success) {
      const rows = isRecord(body) && Array.isArray(body.controls) ? (body.controls as unknown[]) : null;
      if (rows && isRecord(body) && typeof body.name === 'string') {
        const bad = rows.findIndex((row) => !controlSetFileSchema.shape.controls.element.safeParse(row).success);
        if (bad >= 0) fail(COMPLIANCE_MESSAGES.uploadControlIncomplete(bad));
      }
      return fail(COMPLIANCE_MESSAGES.uploadNotRecognised);
    }
    file = parsed.data;
  }
  const name = file.name.trim();
  if (!name) fail(COMPLIANCE_MESSAGES.uploadNameRequired, { name: [COMPLIANCE_MESSAGES.uploadNameRequired] });
  if (name.length > MAX_TEXT.name)
    fail(`The name is at most ${MAX_TEXT.name} characters.`, {
      name: [`The name is at most ${MAX_TEXT.name} characters.`],
    });
  if (file.controls.length === 0) fail(COMPLIANCE_MESSAGES.uploadNoControls);
  if (file.controls.length > MAX_CONTROLS) fail(COMPLIANCE_MESSAGES.uploadTooManyControls);
  const seen = new Set<string>();
  const controls = file.controls.map((control, index) => {
    const id = control.id.trim();
    const family = control.family.trim();
    const title = control.title.trim();
    if (!id || !family || !title) fail(COMPLIANCE_MESSAGES.uploadControlIncomplete(index));
    if (
      id.length > MAX_TEXT.id ||
      family.length > MAX_TEXT.family ||
      title.length > MAX_TEXT.title ||
      (control.description ?? '').length > MAX_TEXT.description
    ) {
      fail(`Control ${index + 1}: a value is too long.`);
    }
    if (seen.has(id.toUpperCase())) fail(COMPLIANCE_MESSAGES.uploadDuplicateControl(id));
    seen.add(id.toUpperCase());
    return { id, family, title, description: control.description ?? '' };
  });
  return {
    name,
    description: file.description?.trim().slice(0, MAX_TEXT.source) || null,
    source: file.source?.trim().slice(0, MAX_TEXT.source) || null,
    controls,
  };
}

/** Writes a set and its controls in the caller's transaction; null when its owner has a set of that name already. */
async function insertControlSet(
  trx: Tx,
  tenantId: string | null,
  file: ControlSetFile,
  by: string,
): Promise<{ control_set_id: string } | null> {
  const set = await scoped(trx, ALL_TENANTS)
    .insertInto('control_set', {
      tenant_id: tenantId,
      name: file.name,
      description: file.description ?? null,
      source: file.source ?? null,
      created_by: by,
      modified_by: by,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
    .returning('control_set_id')
    .executeTakeFirst();
  if (!set) return null;
  await trx
    .insertInto('control')
    .values(
      file.controls.map((control, index) => ({
        control_set_id: set.control_set_id,
        name: control.id,
        family: control.family,
        title: control.title,
        description: control.description ?? '',
        sort_order: index + 1,
      })),
    )
    .execute();
  return set;
}

/**
 * The shipped baselines, on every start of every installation (not only the demo): a set is
 * added when no installation-wide set has its name, so running it again, or on several instances
 * at once (the seed's advisory lock), writes nothing twice.
 */
export async function seedShippedControlSets(trx: Tx): Promise<void> {
  for (const file of SHIPPED_FILES) {
    const content: unknown = JSON.parse(await fs.readFile(path.join(SHIPPED_DIR, file), 'utf8'));
    const parsed = z
      .object({ name: z.string(), source: z.string(), controls: controlSetFileSchema.shape.controls })
      .parse(content);
    await insertControlSet(
      trx,
      null,
      { name: parsed.name, description: null, source: parsed.source, controls: parsed.controls },
      'seed',
    );
  }
}

/**
 * PUT v1/controlsets: a tenant's own control set, or (no tenant, a user of all tenants only) one
 * shared by every tenant. One transaction: the set and all its controls, or nothing.
 */
export async function uploadControlSet(
  db: Db,
  user: Principal,
  tenantId: string | undefined,
  body: unknown,
): Promise<ControlSetSummary> {
  if (tenantId === undefined && user.tenantScope.kind !== 'all')
    throw new HttpError(403, COMPLIANCE_MESSAGES.sharedRefused);
  if (
    tenantId !== undefined &&
    !(canAccessTenant(user.tenantScope, tenantId) && (await scoped(db, user.tenantScope).hasTenant(tenantId)))
  )
    throw new NotFoundError('The tenant');
  const file = parseControlSetFile(body);
  return db.transaction().execute(async (trx) => {
    const set = await insertControlSet(trx, tenantId ?? null, file, user.userName);
    if (!set)
      throw new BadRequestError(COMPLIANCE_MESSAGES.uploadFailed, {
        name: [COMPLIANCE_MESSAGES.uploadNameTaken(file.name)],
      });
    await recordAudit(trx, user, {
      entityType: 'controlSet',
      entityId: set.control_set_id,
      tenantId: tenantId ?? null,
      action: 'create',
      changes: { name: file.name, controls: file.controls.length },
    });
    return {
      id: set.control_set_id,
      name: file.name,
      description: file.description ?? null,
      source: file.source ?? null,
      tenantId: tenantId ?? null,
      controlCount: file.controls.length,
    };
  });
}
