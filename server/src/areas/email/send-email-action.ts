import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { SEVERITIES, WORK_UNIT_STATES } from '@cfs/contracts/work-units';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { ActionFailure, type ActionOutcome, type ActionRun } from '../../engines/actions/run.js';
import { deliverEmail, type DeliveryResult, type OutgoingEmail } from '../../engines/email/delivery.js';
import { findEmailTenant, findEmailWorkUnit, findProtocolStep } from './queries.js';
import { parseEmailParametersOr, renderEmail, type EmailContext, type EmailWorkUnit } from './templates.js';

/** What the email of a run is about: the protocol's work unit, the rule's match, or the catalogue's test. */
async function contextOf(
  db: Db,
  run: ActionRun,
  publicUrl: string,
): Promise<{ context: EmailContext; workUnitId: number | null }> {
  const { origin } = run;
  const scope = { kind: 'some', tenantIds: [run.tenantId] } as const;
  if (origin.kind === 'protocol' || origin.kind === 'workUnit') {
    const unit = await findEmailWorkUnit(db, scope, origin.workUnitId, publicUrl);
    if (!unit) throw new ActionFailure(`Work unit ${origin.workUnitId} no longer exists.`);
    const step =
      origin.kind === 'protocol' ? await findProtocolStep(db, run.tenantId, origin.protocolActionId) : undefined;
    return {
      context: {
        tenant: unit.tenant,
        workUnit: unit.workUnit,
        ruleMatch: null,
        test: null,
        summary: step?.summary ?? null,
      },
      workUnitId: origin.workUnitId,
    };
  }
  const tenant = await findEmailTenant(db, run.tenantId);
  if (!tenant) throw new ActionFailure('The tenant no longer exists.');
  if (origin.kind === 'rule') {
    const match = await scoped(db, scope)
      .selectFrom('rule_match')
      .select(['first_match', 'last_match', 'expires'])
      .where('rule_match_id', '=', origin.ruleMatchId)
      .executeTakeFirst();
    const when = match ? new Date(origin.phase === 'match' ? match.last_match : match.expires) : new Date();
    return {
      context: {
        tenant,
        workUnit: null,
        ruleMatch: {
          ruleName: origin.ruleName,
          subjectId: origin.subjectId,
          label: origin.label,
          phase: origin.phase,
          when,
          since: match ? new Date(match.first_match) : when,
          group: origin.group ?? null,
          repeat: origin.repeat ?? null,
        },
        test: null,
        summary: null,
      },
      workUnitId: null,
    };
  }
  // A test shows the template as a work unit would have it, with a sample unit; no stakeholder address, so it goes to the internal one.
  const sample: EmailWorkUnit = {
    workUnitId: 0,
    title: 'Printer out of paper',
    description: 'The printer on the second floor reports that it is out of paper.',
    resolution: 'The sample resolution.',
    severityId: SEVERITIES.Sev2,
    stateId: WORK_UNIT_STATES.New,
    stakeholderName: 'Sample Stakeholder',
    stakeholderEmail: null,
    created: new Date(),
    link: publicUrl,
  };
  return {
    context: { tenant, workUnit: sample, ruleMatch: null, test: { triggeredBy: origin.triggeredBy }, summary: null },
    workUnitId: null,
  };
}

function outcomeOf(result: DeliveryResult, subject: string | null): ActionOutcome {
  const what = subject === null ? `Email #${result.emailId}` : `Email "${subject}"`;
  switch (result.kind) {
    case 'kept':
      return {
        status: ACTION_RESULT_STATUSES.Success,
        detail: `${what} to ${result.to} kept in the outbox (no SMTP server is configured).`,
      };
    case 'sent':
      return { status: ACTION_RESULT_STATUSES.Success, detail: `${what} sent to ${result.to} (${result.messageId}).` };
    case 'already':
      return {
        status: ACTION_RESULT_STATUSES.Success,
        detail: `${what} to ${result.to} was ${result.transport === 'smtp' ? 'sent' : 'kept in the outbox'} by an earlier attempt of this run.`,
      };
  }
}

/**
 * The built-in Send Email action (spec 002 §3: IsImportant, Template, ExtraParameters), registered
 * by the email area's manifest. A protocol run writes about its work unit (to the stakeholder and
 * the tenant's internal address by template), a rule run about its match, a test run sends a test
 * message; all to the tenant's internal address where no stakeholder is known. Delivery: SMTP when
 * SMTP_URL is set, else the outbox; once per run key either way (delivery.ts).
 */
export async function sendEmailAction(db: Db, run: ActionRun, key: string): Promise<ActionOutcome> {
  // The worker reads its settings where it runs, as the partition task does (engines/ingestion/partitions.ts).
  const config = loadConfig(process.env);
  let subject: string | null = null;
  const result = await deliverEmail(db, config.smtp, key, async (): Promise<OutgoingEmail> => {
    const parameters = parseEmailParametersOr(run.parameters, (error) => new ActionFailure(error.message));
    const { context, workUnitId } = await contextOf(db, run, config.publicUrl);
    const email = renderEmail(context, parameters);
    if (!email.to && !email.cc && !email.bcc) {
      throw new ActionFailure(
        parameters.template === 'None'
          ? 'The email has no recipient: the None template sends only to the To, Cc and Bcc of ExtraParameters.'
          : `The email has no recipient: ${context.workUnit && !context.test ? 'the work unit has no stakeholder email address and ' : ''}the tenant has no internal notification email address.`,
      );
    }
    subject = email.subject;
    return {
      ...email,
      tenantId: run.tenantId,
      template: parameters.template,
      isImportant: parameters.isImportant,
      workUnitId,
    };
  });
  return outcomeOf(result, subject);
}
