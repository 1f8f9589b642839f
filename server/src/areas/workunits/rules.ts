import { TENANT_DISABLED_MESSAGE, customFieldOptions, customFieldSchema } from '@cfs/contracts/tenants';
import {
  WORK_UNIT_MESSAGES,
  WORK_UNIT_STATES,
  WORK_UNIT_TYPES,
  allowedNextStates,
  customValueFields,
  workUnitInputSchema,
  type WorkUnitFields,
} from '@cfs/contracts/work-units';
import type { Principal } from '../../auth/principal.js';
import type { ScopedDb } from '../../db/scoped.js';
import { BadRequestError, HttpError } from '../../http/errors.js';
import { answerProblems } from '../../http/json-schema.js';
import { VALIDATION_MESSAGE } from '../../http/error-handler.js';

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, message: string) => void (errors[field] ??= []).push(message);

/** The document after a create or a patch, checked by the contract's schema (spec 001 §5). */
export function parseDocument(document: unknown): WorkUnitFields {
  const parsed = workUnitInputSchema.safeParse(document);
  if (parsed.success) return parsed.data;
  const errors: Errors = {};
  for (const issue of parsed.error.issues) add(errors, issue.path.join('.') || 'workUnit', issue.message);
  throw new BadRequestError(VALIDATION_MESSAGE, errors);
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/**
 * What the database must confirm: the tenant, type, category and subcategory exist and fit
 * together, custom values match the tenant's field definitions, the state may follow the
 * previous one, and only the named approver decides (spec 001 §4, §5, §6).
 */
export async function checkWorkUnit(
  db: ScopedDb,
  user: Principal,
  next: WorkUnitFields,
  previous: WorkUnitFields | null,
): Promise<WorkUnitFields> {
  const errors: Errors = {};
  // A tenant outside the caller's scope is not found, like one that does not exist.
  const tenant = await db.selectFrom('tenant').selectAll().where('tenant_id', '=', next.tenantId).executeTakeFirst();
  // The caller's own disabled tenant is outside the scope too, and is named as what it is.
  if (!tenant)
    add(
      errors,
      'tenantId',
      (await db.tenantState(next.tenantId)) === 'disabled'
        ? TENANT_DISABLED_MESSAGE
        : WORK_UNIT_MESSAGES.tenantRequired,
    );
  // A disabled tenant takes no new work units, nor units moved into it; its existing units stay editable.
  else if (!tenant.enabled && previous?.tenantId !== next.tenantId) add(errors, 'tenantId', TENANT_DISABLED_MESSAGE);

  const type = await db.executor
    .selectFrom('work_unit_type')
    .select(['work_unit_type_id', 'enabled'])
    .where('work_unit_type_id', '=', next.workUnitTypeId)
    .executeTakeFirst();
  if (!type || (!type.enabled && previous?.workUnitTypeId !== next.workUnitTypeId))
    add(errors, 'workUnitTypeId', WORK_UNIT_MESSAGES.typeRequired);

  if (next.workUnitCategoryId != null) {
    const category = await db
      .selectFrom('work_unit_category')
      .select(['tenant_id'])
      .where('work_unit_category_id', '=', next.workUnitCategoryId)
      .executeTakeFirst();
    if (!category || category.tenant_id !== next.tenantId)
      add(errors, 'workUnitCategoryId', 'Please choose a category of the work unit’s tenant.');
  }
  if (next.protocolId != null && next.protocolId !== previous?.protocolId) {
    // A unit follows a protocol of its own tenant or one of the installation's (no tenant).
    const protocol = await db
      .selectFrom('protocol')
      .select(['tenant_id'])
      .where('protocol_id', '=', next.protocolId)
      .executeTakeFirst();
    if (!protocol || (protocol.tenant_id !== null && protocol.tenant_id !== next.tenantId))
      add(errors, 'protocolId', 'Please choose a protocol of the work unit’s tenant.');
  }
  if (next.workUnitSubcategoryId != null) {
    const subcategory = await db.executor
      .selectFrom('work_unit_subcategory')
      .select(['work_unit_category_id'])
      .where('work_unit_subcategory_id', '=', next.workUnitSubcategoryId)
      .executeTakeFirst();
    if (!subcategory || subcategory.work_unit_category_id !== next.workUnitCategoryId)
      add(errors, 'workUnitSubcategoryId', 'Please choose a subcategory of the chosen category.');
  }

  if (!allowedNextStates(previous ? previous.stateId : null).includes(next.stateId))
    add(errors, 'stateId', WORK_UNIT_MESSAGES.stateNotAllowed);

  if (tenant) {
    customValueFields.forEach((field, index) => {
      const value = next[field];
      if (value == null || value === '' || value === previous?.[field]) return;
      const definition = tenant[`work_unit_field_${index + 1}` as `work_unit_field_1`];
      const parsed = definition ? customFieldSchema.safeParse(JSON.parse(definition)) : undefined;
      if (!parsed?.success) add(errors, field, 'This custom field is not defined for the tenant.');
      else if (parsed.data.Type === 2 && !customFieldOptions(parsed.data).includes(value))
        add(errors, field, WORK_UNIT_MESSAGES.customValueNotAnOption);
    });
  }
  if (next.properties) {
    try {
      const properties: unknown = JSON.parse(next.properties);
      if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
        add(errors, 'properties', 'Properties must be a JSON object.');
      // An intake is filed with the answers to its tenant's intake form: they must satisfy the form,
      // whatever the browser checked (spec 001 §2 "Intake drawer": validation from the schema).
      else if (previous === null && next.workUnitTypeId === WORK_UNIT_TYPES.Intake && tenant?.intake_wizard_schema) {
        const problems = answerProblems(tenant.intake_wizard_schema, properties);
        if (problems.length > 0)
          add(errors, 'properties', `${WORK_UNIT_MESSAGES.intakeAnswersInvalid} ${problems.join('; ')}`);
      }
    } catch {
      add(errors, 'properties', 'Properties must be a JSON object.');
    }
  }
  if (Object.keys(errors).length) throw new BadRequestError(VALIDATION_MESSAGE, errors);
  return checkApprovals(user, next, previous);
}

/**
 * Approve sets approvedNBy to the current user; decline sets declinedNBy, decisionNNotes and
 * the state Canceled (spec 001 §4). Only the unit's existing approver N may do either, and only
 * as themselves: naming oneself approver and approving in one edit does not count, and a new
 * approver starts undecided. Nobody names themselves approver (separation of duties).
 */
function checkApprovals(user: Principal, next: WorkUnitFields, previous: WorkUnitFields | null): WorkUnitFields {
  let result = next;
  for (const n of [1, 2] as const) {
    const decisionFields = [`approved${n}By`, `declined${n}By`, `decision${n}Notes`] as const;
    if (!same(previous?.[`approver${n}`], next[`approver${n}`])) {
      // Separation of duties: whoever names an approver cannot name themselves, so no editor can
      // make themselves approver in one edit and approve in the next.
      if (next[`approver${n}`] && same(next[`approver${n}`], user.email)) {
        throw new BadRequestError(VALIDATION_MESSAGE, { [`approver${n}`]: [WORK_UNIT_MESSAGES.selfApprover] });
      }
      if (decisionFields.some((field) => next[field] && next[field] !== previous?.[field])) {
        throw new HttpError(400, WORK_UNIT_MESSAGES.approverMismatch(previous?.[`approver${n}`] ?? `approver ${n}`));
      }
      result = { ...result, [`approved${n}By`]: null, [`declined${n}By`]: null, [`decision${n}Notes`]: null };
      continue;
    }
    const changed = decisionFields.filter((field) => (next[field] ?? null) !== (previous?.[field] ?? null));
    if (changed.length === 0) continue;
    const approver = previous?.[`approver${n}`];
    if (!approver || !same(user.email, approver))
      throw new HttpError(400, WORK_UNIT_MESSAGES.approverMismatch(approver ?? `approver ${n}`));
    for (const field of [`approved${n}By`, `declined${n}By`] as const) {
      const value = next[field];
      if (changed.includes(field) && value && !same(value, user.email))
        throw new HttpError(400, WORK_UNIT_MESSAGES.approverMismatch(approver));
    }
    if (next[`declined${n}By`] && !previous?.[`declined${n}By`])
      result = { ...result, stateId: WORK_UNIT_STATES.Canceled };
  }
  return result;
}
