import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { EMAIL_TEMPLATES, type RenderedEmail } from '@cfs/contracts/automation';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { sendEmailAction } from '../src/areas/email/send-email-action.js';
import { parseEmailParameters, renderEmail, type EmailContext } from '../src/areas/email/templates.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import type { ActionRun } from '../src/engines/actions/run.js';
import { runAction } from '../src/engines/actions/runner.js';
import { createTestPortal, type TestPortal } from './harness.js';

/** A real SMTP server on 127.0.0.1 that keeps what it receives; addresses at refuse.example are refused for good. */
interface Received {
  from: string;
  to: string[];
  raw: string;
}
let smtp: SMTPServer;
let smtpPort = 0;
const received: Received[] = [];

/** The Subject header of a raw message, unfolded and decoded (RFC 2047 Q encoding, as nodemailer writes it). */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header.replace(/\?=\r?\n[ \t]+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, text: string) =>
    Buffer.from(
      text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

let portal: TestPortal;
let workUnitId: number;
let otherWorkUnitId: number;
let emailStepId: string;
let colorStepId: string;
let otherStepId: string;

const INTERNAL = 'noc@contoso.example';
const STAKEHOLDER = 'dana@customer.example';

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refuse.example'))
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  portal = await createTestPortal();
  const db = portal.db;
  await db
    .updateTable('tenant')
    .set({ internal_notification_email_address: INTERNAL })
    .where('tenant_id', '=', DEMO.contoso)
    .execute();
  const unit = await db
    .insertInto('work_unit')
    .values({
      tenant_id: DEMO.contoso,
      title: 'Printer <b>jam</b> & "smoke"',
      description: 'Line one\n<script>alert(1)</script>',
      severity_id: 1,
      state_id: WORK_UNIT_STATES.InProgress,
      work_unit_type_id: WORK_UNIT_TYPES.Incident,
      stakeholder_full_name: 'Dana Customer',
      stakeholder_email_address: STAKEHOLDER,
    })
    .returning('work_unit_id')
    .executeTakeFirstOrThrow();
  workUnitId = unit.work_unit_id;
  const other = await db
    .insertInto('work_unit')
    .values({
      tenant_id: DEMO.fabrikam,
      title: 'Fabrikam unit',
      severity_id: 2,
      state_id: WORK_UNIT_STATES.New,
      work_unit_type_id: WORK_UNIT_TYPES.Incident,
    })
    .returning('work_unit_id')
    .executeTakeFirstOrThrow();
  otherWorkUnitId = other.work_unit_id;
  const protocol = await db
    .insertInto('protocol')
    .values({ tenant_id: DEMO.contoso, name: 'Email protocol' })
    .returning('protocol_id')
    .executeTakeFirstOrThrow();
  const step = (
    actionDefinitionId: string,
    parameters: Record<string, string>,
    tenantId: string | null = DEMO.contoso,
  ) =>
    db
      .insertInto('protocol_action')
      .values({
        protocol_id: protocol.protocol_id,
        tenant_id: tenantId,
        action_definition_id: actionDefinitionId,
        work_unit_event_type_id: WORK_UNIT_EVENT_TYPES.OnNew,
        parameters: JSON.stringify(parameters),
        summary: 'Tell the customer',
      })
      .returning('protocol_action_id')
      .executeTakeFirstOrThrow();
  emailStepId = (
    await step(BUILT_IN_ACTIONS.sendEmail.id, { Template: 'Detailed', IsImportant: 'false', ExtraParameters: '' })
  ).protocol_action_id;
  colorStepId = (await step(BUILT_IN_ACTIONS.setColor.id, { Color: 'Red' })).protocol_action_id;
  otherStepId = (await step(BUILT_IN_ACTIONS.sendEmail.id, { Template: 'Simple' }, DEMO.fabrikam)).protocol_action_id;
}, 30_000);

afterAll(async () => {
  await portal?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
});

afterEach(() => {
  delete process.env.SMTP_URL;
  delete process.env.SMTP_FROM;
});

const context = (overrides: Partial<EmailContext> = {}): EmailContext => ({
  tenant: { name: 'Contoso', internalAddress: INTERNAL },
  workUnit: {
    workUnitId: 42,
    title: 'Printer <b>jam</b>',
    description: 'It <i>smokes</i>',
    resolution: 'Replaced the fuser',
    severityId: 1,
    stateId: WORK_UNIT_STATES.Resolved,
    stakeholderName: 'Dana & Co',
    stakeholderEmail: STAKEHOLDER,
    created: new Date('2026-01-02T03:04:00Z'),
    link: 'http://portal.test/workunitsv2?workUnitId=42',
  },
  ruleMatch: null,
  test: null,
  summary: null,
  ...overrides,
});
const render = (parameters: Record<string, string>, overrides: Partial<EmailContext> = {}) =>
  renderEmail(context(overrides), parseEmailParameters(parameters));

describe('email templates', () => {
  const expected: Record<string, { to: string; cc: string; subject: RegExp }> = {
    AllClear: { to: STAKEHOLDER, cc: INTERNAL, subject: /^All clear: Printer <b>jam<\/b>$/ },
    CfsInternalWuCommNotification: { to: INTERNAL, cc: '', subject: /^Internal notification: / },
    Detailed: { to: STAKEHOLDER, cc: INTERNAL, subject: /^Work unit #42: Printer/ },
    GeneralAlert: { to: STAKEHOLDER, cc: INTERNAL, subject: /^Alert: / },
    None: { to: '', cc: '', subject: /^Message from CFS Portal$/ },
    Rule: { to: INTERNAL, cc: '', subject: /^Rule notification: / },
    Simple: { to: STAKEHOLDER, cc: '', subject: /^Work unit #42: / },
    SOCAlert: { to: INTERNAL, cc: '', subject: /^SOC alert: / },
    ResolutionCenterCreated: { to: STAKEHOLDER, cc: '', subject: /^We received your request: / },
    ResolutionCenterResolved: { to: STAKEHOLDER, cc: '', subject: /^Your request has been resolved: / },
  };

  test.each(EMAIL_TEMPLATES)(
    '%s renders its recipients, subject and an escaped HTML body for a work unit',
    (template) => {
      const email = render({ Template: template });
      expect(email.to).toBe(expected[template]!.to);
      expect(email.cc).toBe(expected[template]!.cc);
      expect(email.bcc).toBe('');
      expect(email.subject).toMatch(expected[template]!.subject);
      expect(email.body).toMatch(/^<!DOCTYPE html>/);
      expect(email.body).not.toContain('<b>jam</b>');
      expect(email.body).not.toContain('<i>smokes</i>');
      if (template !== 'None') expect(email.body).toContain('Printer &lt;b&gt;jam&lt;/b&gt;');
      if (template === 'Detailed') {
        expect(email.body).toContain('It &lt;i&gt;smokes&lt;/i&gt;');
        expect(email.body).toContain('href="http://portal.test/workunitsv2?workUnitId=42"');
        expect(email.body).toContain('Sev1');
      }
      if (template === 'ResolutionCenterResolved') expect(email.body).toContain('Replaced the fuser');
    },
  );

  test('IsImportant prefixes the subject and marks the body', () => {
    const email = render({ Template: 'Simple', IsImportant: 'True' });
    expect(email.subject).toBe('[Important] Work unit #42: Printer <b>jam</b>');
    expect(email.body).toContain('>Important</p>');
    expect(render({ Template: 'Simple', IsImportant: 'false' }).subject).not.toContain('[Important]');
  });

  test('ExtraParameters add recipients, replace the subject and show their other values escaped', () => {
    const email = render({
      Template: 'Detailed',
      ExtraParameters: JSON.stringify({
        To: 'ops@contoso.example',
        cc: `a@x.example; ${STAKEHOLDER}`,
        BCC: 'audit@x.example',
        Site: 'North <1>',
        Count: 3,
      }),
    });
    expect(email.to).toBe(`${STAKEHOLDER}, ops@contoso.example`);
    // The stakeholder is in To already: not repeated in Cc.
    expect(email.cc).toBe(`${INTERNAL}, a@x.example`);
    expect(email.bcc).toBe('audit@x.example');
    expect(email.body).toContain('Additional details');
    expect(email.body).toContain('North &lt;1&gt;');
    expect(email.body).toContain('>3</td>');
    const none = render({
      Template: 'None',
      ExtraParameters: JSON.stringify({ To: 'ops@contoso.example', Subject: 'Hand-written', Note: 'Hi' }),
    });
    expect(none).toMatchObject({ to: 'ops@contoso.example', cc: '', subject: 'Hand-written' });
    expect(none.body).toContain('>Hi</td>');
  });

  test('a unit without a stakeholder address writes to the internal address; rule matches and tests too', () => {
    const base = context();
    const noStakeholder = render({ Template: 'AllClear' }, { workUnit: { ...base.workUnit!, stakeholderEmail: null } });
    expect(noStakeholder).toMatchObject({ to: INTERNAL, cc: '' });
    const rule = render(
      { Template: 'Rule' },
      {
        workUnit: null,
        ruleMatch: {
          ruleName: 'CPU <high>',
          subjectId: 'dev-1',
          label: 'Server 1',
          phase: 'match',
          when: new Date('2026-01-01T00:00:00Z'),
          since: new Date('2026-01-01T00:00:00Z'),
          group: null,
          repeat: null,
        },
      },
    );
    expect(rule.to).toBe(INTERNAL);
    expect(rule.subject).toBe('Rule notification: CPU <high>: Server 1');
    expect(rule.body).toContain('CPU &lt;high&gt;');
    // One email for a group: its name and count in the subject, every subject named, the rest counted.
    const matches = Array.from({ length: 52 }, (_, index) => ({
      ruleMatchId: crypto.randomUUID(),
      ruleName: index % 2 ? 'Disk full' : 'CPU <high>',
      subjectId: `dev-${index}`,
      label: `Server ${index}`,
    }));
    const grouped = render(
      { Template: 'Rule' },
      {
        workUnit: null,
        ruleMatch: {
          ruleName: 'CPU <high>',
          subjectId: 'dev-0',
          label: 'Server 0',
          phase: 'match',
          when: new Date('2026-01-01T00:00:00Z'),
          since: new Date('2026-01-01T00:00:00Z'),
          group: { by: 'location', name: 'North', count: 52, matches },
          repeat: null,
        },
      },
    );
    expect(grouped.to).toBe(INTERNAL);
    expect(grouped.subject).toBe('Rule notification: North: 52 matches');
    expect(grouped.body).toContain('Server 1 (dev-1): Disk full');
    expect(grouped.body).toContain('Server 49 (dev-49)');
    expect(grouped.body).not.toContain('Server 50 (dev-50)');
    expect(grouped.body).toContain('and 2 more');
    // A repeat reads as a reminder: its number in the subject, since when the match is open, and why it comes.
    const reminder = render(
      { Template: 'Rule' },
      {
        workUnit: null,
        ruleMatch: {
          ruleName: 'CPU high',
          subjectId: 'dev-1',
          label: 'Server 1',
          phase: 'match',
          when: new Date('2026-01-01T02:00:00Z'),
          since: new Date('2026-01-01T00:00:00Z'),
          group: null,
          repeat: 2,
        },
      },
    );
    expect(reminder.subject).toBe('Rule notification: Reminder 2: CPU high: Server 1');
    expect(reminder.body).toContain('Open since');
    expect(reminder.body).toContain('Nobody has acknowledged it yet: this is reminder 2');
    const probe = render(
      { Template: 'AllClear' },
      {
        workUnit: { ...base.workUnit!, stakeholderEmail: null, title: 'Printer out of paper' },
        test: { triggeredBy: 'admin' },
      },
    );
    expect(probe).toMatchObject({ to: INTERNAL, cc: '', subject: '[Test] All clear: Printer out of paper' });
    expect(probe.body).toContain('The issue reported in the sample work unit no longer needs attention.');
  });

  test('refuses an unknown template, an IsImportant that is no boolean and ExtraParameters that are no JSON object', () => {
    expect(() => parseEmailParameters({ Template: 'Fancy' })).toThrow('Template "Fancy" is not one of AllClear');
    expect(() => parseEmailParameters({ IsImportant: 'maybe' })).toThrow('IsImportant must be true or false.');
    expect(() => parseEmailParameters({ ExtraParameters: '[1]' })).toThrow(
      'ExtraParameters must be the JSON text of an object',
    );
    expect(() => parseEmailParameters({ ExtraParameters: '{"To":"not an address"}' })).toThrow(
      '"not an address" in ExtraParameters To is not an email address.',
    );
  });
});

describe('POST /v1/emailtemplates/render', () => {
  const renderAs = (user: string, payload: Record<string, unknown>) =>
    portal.as(user, { method: 'POST', url: '/v1/emailtemplates/render', payload });

  test("answers the step's email for the unit, with the user's values over the step's", async () => {
    const response = await renderAs('operator', {
      workUnitId,
      protocolActionId: emailStepId,
      userDefinedParams: JSON.stringify({ IsImportant: 'true', ExtraParameters: '{"Bcc":"boss@contoso.example"}' }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const email = response.json<RenderedEmail>();
    expect(email).toMatchObject({
      to: STAKEHOLDER,
      cc: INTERNAL,
      bcc: 'boss@contoso.example',
      subject: `[Important] Work unit #${workUnitId}: Printer <b>jam</b> & "smoke"`,
    });
    expect(email.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.body).not.toContain('<script>');
    expect(email.body).toContain('Tell the customer');
    expect(email.body).toContain(`http://portal.test/workunitsv2?workUnitId=${workUnitId}`);
  });

  test('answers 400 with the field for bad input, a step that sends no email and bad parameters', async () => {
    const missing = await renderAs('operator', { protocolActionId: emailStepId });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ errors: Record<string, string[]> }>().errors.workUnitId).toBeDefined();
    const color = await renderAs('operator', { workUnitId, protocolActionId: colorStepId });
    expect(color.statusCode).toBe(400);
    expect(color.json()).toMatchObject({
      message: 'This protocol action does not send an email.',
      errors: { protocolActionId: ['This protocol action does not send an email.'] },
    });
    const template = await renderAs('operator', {
      workUnitId,
      protocolActionId: emailStepId,
      userDefinedParams: { Template: 'Fancy' },
    });
    expect(template.statusCode).toBe(400);
    expect(template.json<{ errors: Record<string, string[]> }>().errors.Template![0]).toMatch(
      /^Template "Fancy" is not one of/,
    );
    const notJson = await renderAs('operator', {
      workUnitId,
      protocolActionId: emailStepId,
      userDefinedParams: '{oops',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json<{ errors: Record<string, string[]> }>().errors.userDefinedParams).toBeDefined();
  });

  test("answers 404 for another tenant's unit or step, and 403 without WorkUnits view", async () => {
    expect(
      (await renderAs('operator', { workUnitId: otherWorkUnitId, protocolActionId: otherStepId })).statusCode,
    ).toBe(404);
    expect((await renderAs('operator', { workUnitId, protocolActionId: otherStepId })).statusCode).toBe(404);
    const other = await renderAs('operator2', { workUnitId, protocolActionId: emailStepId });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('Printer');
    expect((await renderAs('enduser', { workUnitId, protocolActionId: emailStepId })).statusCode).toBe(403);
  });
});

describe('the Send Email built-in', () => {
  const protocolRun = (parameters: Record<string, string>): ActionRun => ({
    actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
    tenantId: DEMO.contoso,
    parameters,
    origin: {
      kind: 'protocol',
      workUnitId,
      protocolId: 1,
      protocolActionId: emailStepId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
      manual: true,
      triggeredBy: 'operator',
      workUnitEventId: null,
    },
  });
  const outboxRow = (key: string) =>
    scoped(portal.db, ALL_TENANTS)
      .selectFrom('email_outbox')
      .selectAll()
      .where('job_key', '=', key)
      .executeTakeFirstOrThrow();
  const history = (key: string) =>
    scoped(portal.db, ALL_TENANTS)
      .selectFrom('action_history')
      .selectAll()
      .where('job_key', '=', key)
      .executeTakeFirstOrThrow();
  const useSmtp = () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.SMTP_FROM = 'Portal <portal@contoso.example>';
  };

  test('without SMTP_URL keeps the email in the outbox, once per key', async () => {
    const key = `email-test:${crypto.randomUUID()}`;
    await runAction(portal.db, protocolRun({ Template: 'Simple' }), key);
    const row = await outboxRow(key);
    expect(row).toMatchObject({
      transport: 'outbox',
      to_addresses: STAKEHOLDER,
      template: 'Simple',
      tenant_id: DEMO.contoso,
      work_unit_id: workUnitId,
      sent: null,
      error: null,
    });
    expect((await history(key)).result_status_id).toBe(ACTION_RESULT_STATUSES.Success);
    expect((await history(key)).result_detail).toContain('kept in the outbox');
    const again = await sendEmailAction(portal.db, protocolRun({ Template: 'Simple' }), key);
    expect(again.detail).toContain('by an earlier attempt');
    const rows = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('email_outbox')
      .select('email_id')
      .where('job_key', '=', key)
      .execute();
    expect(rows).toHaveLength(1);
  });

  test('fills the placeholders of ExtraParameters from the work unit ({Title} in its Subject and details), JSON-escaped', async () => {
    const key = `email-test:${crypto.randomUUID()}`;
    await runAction(
      portal.db,
      protocolRun({ Template: 'Simple', ExtraParameters: '{"Subject": "Alert: {Title}", "Unit": "#{WorkUnitId}"}' }),
      key,
    );
    const row = await outboxRow(key);
    expect(row.subject).toBe('Alert: Printer <b>jam</b> & "smoke"');
    expect(row.body).toContain(`#${workUnitId}`);
    expect(row.body).not.toContain('{WorkUnitId}');
    // The history keeps the parameters as they were written.
    const written: unknown = (await history(key)).input_parameters;
    expect(typeof written === 'string' ? JSON.parse(written) : written).toMatchObject({
      ExtraParameters: '{"Subject": "Alert: {Title}", "Unit": "#{WorkUnitId}"}',
    });
  });

  test('with SMTP_URL sends through a real SMTP server and marks the row sent; the same key sends once', async () => {
    useSmtp();
    const before = received.length;
    const key = `email-test:${crypto.randomUUID()}`;
    const run = protocolRun({
      Template: 'AllClear',
      IsImportant: 'true',
      ExtraParameters: '{"Bcc":"audit@contoso.example"}',
    });
    await runAction(portal.db, run, key);
    expect(received.length).toBe(before + 1);
    const message = received.at(-1)!;
    expect(message.from).toBe('portal@contoso.example');
    expect(message.to.sort()).toEqual(['audit@contoso.example', INTERNAL, STAKEHOLDER].sort());
    expect(subjectOf(message.raw)).toBe('[Important] All clear: Printer <b>jam</b> & "smoke"');
    expect(message.raw).not.toMatch(/^Bcc:/m);
    const row = await outboxRow(key);
    expect(row.transport).toBe('smtp');
    expect(row.sent).not.toBeNull();
    expect(row.smtp_message_id).toMatch(/^<cfs-outbox-/);
    expect(message.raw.replace(/\r?\n[ \t]+/g, ' ')).toMatch(
      new RegExp(`^Message-ID: +${row.smtp_message_id!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'),
    );
    // The job runs again (a worker died after sending): nothing more is sent.
    await sendEmailAction(portal.db, run, key);
    await runAction(portal.db, run, key);
    expect(received.length).toBe(before + 1);
  });

  test('a row left waiting by a crash is sent on the rerun, then never again', async () => {
    useSmtp();
    const key = `email-test:${crypto.randomUUID()}`;
    await scoped(portal.db, { kind: 'some', tenantIds: [DEMO.contoso] })
      .insertInto('email_outbox', {
        tenant_id: DEMO.contoso,
        template: 'Simple',
        to_addresses: INTERNAL,
        subject: 'Waiting since the crash',
        body: '<p>x</p>',
        transport: 'smtp',
        job_key: key,
      })
      .execute();
    const before = received.length;
    await sendEmailAction(portal.db, protocolRun({ Template: 'Simple' }), key);
    await sendEmailAction(portal.db, protocolRun({ Template: 'Simple' }), key);
    expect(received.length).toBe(before + 1);
    expect(subjectOf(received.at(-1)!.raw)).toBe('Waiting since the crash');
    expect((await outboxRow(key)).sent).not.toBeNull();
  });

  test('a recipient the SMTP server refuses for good is a Failure with its reason, kept on the row', async () => {
    useSmtp();
    const key = `email-test:${crypto.randomUUID()}`;
    await runAction(
      portal.db,
      protocolRun({ Template: 'None', ExtraParameters: '{"To":"nobody@refuse.example"}' }),
      key,
    );
    const recorded = await history(key);
    expect(recorded.result_status_id).toBe(ACTION_RESULT_STATUSES.Failure);
    expect(recorded.result_detail).toContain('The SMTP server refused the email');
    const row = await outboxRow(key);
    expect(row.sent).toBeNull();
    expect(row.error).toContain('Mailbox unavailable');
  });

  test('a rule run writes to the internal address about the match; a test run sends a test message', async () => {
    const ruleKey = `email-test:${crypto.randomUUID()}`;
    await runAction(
      portal.db,
      {
        actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
        tenantId: DEMO.contoso,
        parameters: { Template: 'Rule' },
        origin: {
          kind: 'rule',
          ruleMatchId: crypto.randomUUID(),
          ruleId: crypto.randomUUID(),
          ruleName: 'Disk full',
          subjectId: 'srv-1',
          label: 'Server 1',
          phase: 'match',
          suppressed: false,
        },
      },
      ruleKey,
    );
    expect(await outboxRow(ruleKey)).toMatchObject({
      to_addresses: INTERNAL,
      subject: 'Rule notification: Disk full: Server 1',
      work_unit_id: null,
    });
    const testKey = `email-test:${crypto.randomUUID()}`;
    await runAction(
      portal.db,
      {
        actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
        tenantId: DEMO.contoso,
        parameters: {},
        origin: { kind: 'test', messageId: crypto.randomUUID(), triggeredBy: 'admin' },
      },
      testKey,
    );
    const probe = await outboxRow(testKey);
    expect(probe).toMatchObject({
      to_addresses: INTERNAL,
      cc_addresses: null,
      subject: '[Test] Sample work unit: Printer out of paper',
      work_unit_id: null,
    });
    expect(probe.body).toContain('requested by admin');
  });

  test('bad parameters or no recipient are a Failure and write no email', async () => {
    const key = `email-test:${crypto.randomUUID()}`;
    await runAction(portal.db, protocolRun({ Template: 'Fancy' }), key);
    expect((await history(key)).result_detail).toMatch(/^Template "Fancy" is not one of/);
    const none = `email-test:${crypto.randomUUID()}`;
    await runAction(portal.db, protocolRun({ Template: 'None' }), none);
    expect((await history(none)).result_detail).toContain('The email has no recipient');
    const rows = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('email_outbox')
      .select('email_id')
      .where('job_key', 'in', [key, none])
      .execute();
    expect(rows).toHaveLength(0);
  });
});

describe('GET v1/emailOutbox', () => {
  test('lists the emails newest first to administrators, searchable, within their tenants', async () => {
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/emailOutbox?$count=true&$expand=tenant&$filter=${encodeURIComponent("contains(tolower(subject),'rule notification')")}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json<{
      '@odata.count': number;
      value: { subject: string; to: string; tenant: { name: string } }[];
    }>();
    expect(list['@odata.count']).toBeGreaterThanOrEqual(1);
    expect(list.value[0]).toMatchObject({
      subject: 'Rule notification: Disk full: Server 1',
      to: INTERNAL,
      tenant: { name: expect.any(String) },
    });
    const all = (await portal.as('admin', { method: 'GET', url: '/v1/emailOutbox' })).json<{
      value: { created: string }[];
    }>().value;
    const created = all.map((row) => row.created);
    expect(created).toEqual([...created].sort().reverse());
    expect((await portal.as('operator', { method: 'GET', url: '/v1/emailOutbox' })).statusCode).toBe(403);
  });
});
