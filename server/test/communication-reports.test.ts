import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  COMMUNICATION_MESSAGES,
  publicCommunicationReportSchema,
  type CommunicationStatus,
} from '@cfs/contracts/communications';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { PUBLIC_REPORT_RATE_LIMIT } from '../src/areas/workunitcommunications/external-report.js';
import {
  deliverCommunicationEmail,
  type CommunicationEmailPayload,
} from '../src/areas/workunitcommunications/communication-email.js';
import { formatReportDate } from '../src/areas/workunitcommunications/internal-report.js';
import { AREAS } from '../src/areas.js';
import { overdueKey, sweepOverdueCommunications } from '../src/areas/workunitcommunications/overdue.js';
import { startJobWorker } from '../src/engines/jobs/worker.js';
import { DEMO } from '../src/db/demo-ids.js';
import { createStaffedTenant, createUserIn, unique } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
const MINUTE = 60_000;

/** A tenant of the test's own with its staff member and an internal notification address of its own. */
async function ownTenant() {
  const internalAddress = `noc-${unique()}@own.example`;
  const tenant = await createStaffedTenant(portal, {
    name: `Own tenant ${unique()}`,
    body: { internalNotificationEmailAddress: internalAddress },
  });
  return { ...tenant, internalAddress };
}

interface Made {
  id: string;
  publicId: number;
}

/** A communication written straight to the table, with one linked work unit and two activities (one internal). */
async function makeCommunication(
  values: {
    tenantId?: string;
    title?: string;
    status?: CommunicationStatus;
    serviceManager?: string;
    nextUpdate?: Date | null;
    nextInternalUpdate?: Date | null;
  } = {},
): Promise<Made> {
  const tenantId = values.tenantId ?? DEMO.contoso;
  const row = await portal.db
    .insertInto('work_unit_communication')
    .values({
      tenant_id: tenantId,
      title: values.title ?? 'Email outage <EU>',
      service_manager: values.serviceManager ?? 'sm@contoso.example',
      status: values.status ?? 'Investigating',
      details: 'Mail delivery is delayed for some mailboxes.',
      current_impact: 'Delayed mail',
      impacted_services: 'Email',
      internal_bridge: 'https://bridge.example/room-42',
      root_cause: values.status === 'Resolved' ? 'A full queue' : null,
      next_update: values.nextUpdate ?? null,
      next_internal_update: values.nextInternalUpdate ?? null,
      event_started: new Date('2026-11-20T08:15:00Z'),
      created_by: 'test',
    })
    .returning(['work_unit_communication_id', 'public_work_unit_communication_id'])
    .executeTakeFirstOrThrow();
  const id = row.work_unit_communication_id;
  const unit = await portal.db
    .insertInto('work_unit')
    .values({
      tenant_id: tenantId,
      title: 'Mailbox unreachable',
      severity_id: 1,
      state_id: WORK_UNIT_STATES.InProgress,
      work_unit_type_id: WORK_UNIT_TYPES.Incident,
    })
    .returning('work_unit_id')
    .executeTakeFirstOrThrow();
  await portal.db
    .insertInto('work_unit_communication_work_unit')
    .values({ work_unit_communication_id: id, work_unit_id: unit.work_unit_id, tenant_id: tenantId })
    .execute();
  await portal.db
    .insertInto('work_unit_communication_activity')
    .values([
      {
        work_unit_communication_id: id,
        tenant_id: tenantId,
        activity_type: 'ResolutionActivity',
        details: 'Queues drained on the relay.',
        is_customer_facing: true,
        is_complete: true,
        completed: new Date('2026-11-20T09:00:00Z'),
      },
      {
        work_unit_communication_id: id,
        tenant_id: tenantId,
        activity_type: 'TaskActivity',
        details: 'Page the vendor on the private line.',
        is_customer_facing: false,
      },
    ])
    .execute();
  return { id, publicId: Number(row.public_work_unit_communication_id) };
}

const jobsOf = (prefix: string) =>
  portal.db
    .selectFrom('job')
    .select(['key', 'payload'])
    .where('task', '=', 'workunitcommunications.email')
    .where('key', 'like', `${prefix}%`)
    .orderBy('job_id')
    .execute();
const payloadOf = (job: { payload: unknown }): CommunicationEmailPayload =>
  (typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload) as CommunicationEmailPayload;
/** Runs a job as the worker would (the task's perform, under the job's key). */
const runJob = (job: { key: string; payload: unknown }) =>
  deliverCommunicationEmail(portal.db, payloadOf(job), job.key);
const outboxOf = (keyPrefix: string) =>
  portal.db
    .selectFrom('email_outbox')
    .select(['template', 'to_addresses', 'subject', 'body', 'job_key', 'tenant_id'])
    .where('job_key', 'like', `${keyPrefix}%`)
    .orderBy('email_id')
    .execute();

beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

describe('Notify Internal (GET v1/workunitcommunications/{id}/sendInternalNotification)', () => {
  const notify = (user: string, id: string) =>
    portal.as(user, { method: 'GET', url: `/v1/workunitcommunications/${id}/sendInternalNotification` });

  it('queues the internal report to the tenant\'s internal address and answers "Internal Notification sent."', async () => {
    const tenant = await ownTenant();
    const made = await makeCommunication({
      tenantId: tenant.tenantId,
      title: 'Email outage <EU>',
      nextUpdate: new Date(Date.now() + 60 * MINUTE),
    });
    const response = await notify(tenant.userName, made.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Internal Notification sent.' });
    const jobs = await jobsOf(`wucomm:notify:${made.id}:`);
    expect(jobs).toHaveLength(1);
    expect(payloadOf(jobs[0]!)).toMatchObject({
      kind: 'internalNotification',
      workUnitCommunicationId: made.id,
      tenantId: tenant.tenantId,
      requestedBy: tenant.userName,
    });

    await runJob(jobs[0]!);
    const sent = await outboxOf(`wucomm:notify:${made.id}:`);
    expect(sent).toHaveLength(1);
    const email = sent[0]!;
    expect(email.template).toBe('CfsInternalWuCommNotification');
    expect(email.to_addresses).toBe(tenant.internalAddress);
    expect(email.tenant_id).toBe(tenant.tenantId);
    expect(email.subject).toBe(`Internal notification: WUCOMM #${made.publicId}: Email outage <EU>`);
    // The whole internal report, every value escaped.
    expect(email.body).toContain('Email outage &lt;EU&gt;');
    expect(email.body).toContain(tenant.name);
    expect(email.body).toContain('Open - Investigating');
    expect(email.body).toContain('https://bridge.example/room-42');
    expect(email.body).toContain('Mailbox unreachable');
    expect(email.body).toContain('Queues drained on the relay.');
    expect(email.body).toContain('Page the vendor on the private line.');
    expect(email.body).toContain('20/Nov/2026 08:15 UTC');
    expect(email.body).toContain(`/${tenant.tenantId}/workunitcommunications?publicWuCommId=${made.publicId}"`);
    expect(email.body).not.toContain('<EU>');
  });

  it('sends once per job key when the job runs again, and once per request', async () => {
    const made = await makeCommunication();
    expect((await notify('operator', made.id)).statusCode).toBe(200);
    const [job] = await jobsOf(`wucomm:notify:${made.id}:`);
    await runJob(job!);
    await runJob(job!); // a worker that died after sending runs the job again: nothing more is sent
    expect(await outboxOf(`wucomm:notify:${made.id}:`)).toHaveLength(1);
    // A second Notify Internal is a second email.
    expect((await notify('operator', made.id)).statusCode).toBe(200);
    const jobs = await jobsOf(`wucomm:notify:${made.id}:`);
    expect(jobs).toHaveLength(2);
    await runJob(jobs[1]!);
    expect(await outboxOf(`wucomm:notify:${made.id}:`)).toHaveLength(2);
  });

  it("answers the spec's failure texts: no id, not an id, unknown, and a tenant without an internal address", async () => {
    const noId = 'Internal Notification failed. No WUCOMM Id was provided.';
    for (const id of ['not-an-id', '42', '%20']) {
      const response = await notify('operator', id);
      expect(response.statusCode, id).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(noId);
    }
    const empty = await portal.as('operator', {
      method: 'GET',
      url: '/v1/workunitcommunications//sendInternalNotification',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toBe(noId);

    const unknown = await notify('operator', crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe(
      'Internal Notification failed. The communication was not found.',
    );

    const tenant = await portal.db
      .insertInto('tenant')
      .values({ name: `No address ${crypto.randomUUID().slice(0, 6)}`, created_by: 'test', modified_by: 'test' })
      .returning('tenant_id')
      .executeTakeFirstOrThrow();
    const made = await makeCommunication({ tenantId: tenant.tenant_id });
    const noAddress = await notify('admin', made.id);
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json<{ message: string }>().message).toBe(
      `Internal Notification failed. ${COMMUNICATION_MESSAGES.notifyNoAddress}`,
    );
    expect(noAddress.json<{ message: string }>().message.startsWith(COMMUNICATION_MESSAGES.notifyFailed)).toBe(true);
    expect(await jobsOf(`wucomm:notify:${made.id}:`)).toHaveLength(0);
  });

  it("does not find another tenant's communication, and needs the edit permission", async () => {
    const other = await createStaffedTenant(portal, {
      name: `Hidden tenant ${unique()}`,
      body: { internalNotificationEmailAddress: 'noc@hidden.example' },
    });
    const title = `Hidden outage ${unique()}`;
    const theirs = await makeCommunication({ tenantId: other.tenantId, title });
    const response = await notify('operator', theirs.id);
    expect(response.statusCode).toBe(404);
    // The answer is the not-found text, and names neither the other tenant nor its communication.
    expect(response.json<{ message: string }>().message).toBe(
      'Internal Notification failed. The communication was not found.',
    );
    expect(response.body).not.toContain(other.name);
    expect(response.body).not.toContain(title);
    expect(await jobsOf(`wucomm:notify:${theirs.id}:`)).toHaveLength(0);
    expect((await notify(other.userName, theirs.id)).statusCode).toBe(200);

    const mine = await makeCommunication();
    expect((await notify('enduser', mine.id)).statusCode).toBe(403);
    expect(
      (
        await portal.app.inject({
          method: 'GET',
          url: `/v1/workunitcommunications/${mine.id}/sendInternalNotification`,
        })
      ).statusCode,
    ).toBe(401);
    expect(await jobsOf(`wucomm:notify:${mine.id}:`)).toHaveLength(0);
  });
});

describe('the overdue timer', () => {
  const notifiedOf = (id: string) =>
    portal.db
      .selectFrom('work_unit_communication')
      .select(['next_update', 'next_update_notified', 'next_internal_update', 'next_internal_update_notified'])
      .where('work_unit_communication_id', '=', id)
      .executeTakeFirstOrThrow();

  it('tells the service manager once per due time, however many sweeps run at once, and again after the next update changes', async () => {
    // The demo's overdue communication is announced first, so the sweeps below count only these.
    await sweepOverdueCommunications(portal.db);
    const due = new Date(Date.now() - 5 * MINUTE);
    const overdue = await makeCommunication({ title: 'Overdue one', serviceManager: 'operator', nextUpdate: due });
    const closed = await makeCommunication({ title: 'Closed one', status: 'Resolved', nextUpdate: due });
    const cancelled = await makeCommunication({ title: 'Cancelled one', status: 'Cancelled', nextUpdate: due });
    const future = await makeCommunication({ title: 'Not yet', nextUpdate: new Date(Date.now() + 30 * MINUTE) });

    const counts = await Promise.all([
      sweepOverdueCommunications(portal.db),
      sweepOverdueCommunications(portal.db),
      sweepOverdueCommunications(portal.db),
    ]);
    const jobs = await jobsOf(`wucomm:next-update:${overdue.id}:`);
    expect(jobs.map((job) => job.key)).toEqual([overdueKey('nextUpdateDue', overdue.id, due)]);
    // Each sweep claimed what the others had not: the claims add up to one per due time.
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    for (const other of [closed, cancelled, future])
      expect(await jobsOf(`wucomm:next-update:${other.id}:`)).toHaveLength(0);
    const marked = await notifiedOf(overdue.id);
    expect(new Date(marked.next_update_notified!).getTime()).toBe(due.getTime());

    await runJob(jobs[0]!);
    await runJob(jobs[0]!);
    const sent = await outboxOf(`wucomm:next-update:${overdue.id}:`);
    expect(sent).toHaveLength(1);
    // "operator" is a user name: the user's own address.
    expect(sent[0]!.to_addresses).toBe('operator@cfs.example');
    expect(sent[0]!.subject).toBe(`Update due: WUCOMM #${overdue.publicId}: Overdue one`);
    expect(sent[0]!.body).toContain(formatReportDate(due));

    // Later sweeps find nothing new.
    await Promise.all([sweepOverdueCommunications(portal.db), sweepOverdueCommunications(portal.db)]);
    expect(await jobsOf(`wucomm:next-update:${overdue.id}:`)).toHaveLength(1);

    // A new next update re-arms it; once that one passes, one more notice.
    const later = new Date(Date.now() - MINUTE);
    await portal.db
      .updateTable('work_unit_communication')
      .set({ next_update: later })
      .where('work_unit_communication_id', '=', overdue.id)
      .execute();
    await Promise.all([sweepOverdueCommunications(portal.db), sweepOverdueCommunications(portal.db)]);
    const again = await jobsOf(`wucomm:next-update:${overdue.id}:`);
    expect(again.map((job) => job.key)).toEqual([
      overdueKey('nextUpdateDue', overdue.id, due),
      overdueKey('nextUpdateDue', overdue.id, later),
    ]);
    await runJob(again[1]!);
    expect(await outboxOf(`wucomm:next-update:${overdue.id}:`)).toHaveLength(2);
  });

  it('writes to a service manager given as an address, and to the internal address for an unknown name', async () => {
    const due = new Date(Date.now() - 2 * MINUTE);
    const { tenantId, internalAddress } = await ownTenant();
    const manager = { userName: `manager-${unique()}`, displayName: `Manager ${unique()}` };
    await createUserIn(portal, manager.userName, [], tenantId, { displayName: manager.displayName });
    const byAddress = await makeCommunication({
      tenantId,
      serviceManager: 'manager@contoso.example',
      nextUpdate: due,
    });
    const unknownName = await makeCommunication({ tenantId, serviceManager: 'Nobody We Know', nextUpdate: due });
    const byDisplayName = await makeCommunication({ tenantId, serviceManager: manager.displayName, nextUpdate: due });
    await sweepOverdueCommunications(portal.db);
    const recipients: string[] = [];
    for (const made of [byAddress, unknownName, byDisplayName]) {
      const [job] = await jobsOf(`wucomm:next-update:${made.id}:`);
      await runJob(job!);
      recipients.push((await outboxOf(`wucomm:next-update:${made.id}:`))[0]!.to_addresses);
    }
    expect(recipients).toEqual(['manager@contoso.example', internalAddress, `${manager.userName}@cfs.example`]);
  });

  it("tells the tenant's internal address once when the next internal update is due", async () => {
    const due = new Date(Date.now() - 3 * MINUTE);
    const tenant = await ownTenant();
    const made = await makeCommunication({ tenantId: tenant.tenantId, title: 'Bridge quiet', nextInternalUpdate: due });
    await Promise.all([sweepOverdueCommunications(portal.db), sweepOverdueCommunications(portal.db)]);
    const jobs = await jobsOf(`wucomm:next-internal-update:${made.id}:`);
    expect(jobs.map((job) => job.key)).toEqual([overdueKey('nextInternalUpdateDue', made.id, due)]);
    expect(await jobsOf(`wucomm:next-update:${made.id}:`)).toHaveLength(0);
    await runJob(jobs[0]!);
    const sent = await outboxOf(`wucomm:next-internal-update:${made.id}:`);
    expect(sent.map((email) => [email.to_addresses, email.subject])).toEqual([
      [tenant.internalAddress, `Internal update due: WUCOMM #${made.publicId}: Bridge quiet`],
    ]);
    expect(sent[0]!.body).toContain('https://bridge.example/room-42');
    expect(new Date((await notifiedOf(made.id)).next_internal_update_notified!).getTime()).toBe(due.getTime());
  });

  it("runs in the worker: the area's recurring sweep finds the due time and its notice is delivered", async () => {
    const due = new Date(Date.now() - 6 * MINUTE);
    const made = await makeCommunication({ serviceManager: 'worker.sm@contoso.example', nextUpdate: due });
    const worker = startJobWorker({
      db: portal.db,
      tasks: AREAS.find((area) => area.name === 'workunitcommunications')?.tasks ?? [],
      pollMs: 50,
      log: () => undefined,
    });
    try {
      const sent = await vi.waitFor(
        async () => {
          const rows = await outboxOf(overdueKey('nextUpdateDue', made.id, due));
          if (rows.length === 0) throw new Error('not yet');
          return rows;
        },
        { timeout: 15_000, interval: 50 },
      );
      expect(sent.map((email) => email.to_addresses)).toEqual(['worker.sm@contoso.example']);
    } finally {
      await worker.stop();
    }
  });

  it('sends nothing when the communication was updated or closed between the sweep and the email', async () => {
    const due = new Date(Date.now() - 4 * MINUTE);
    const updated = await makeCommunication({ nextUpdate: due });
    const closed = await makeCommunication({ nextUpdate: due });
    await sweepOverdueCommunications(portal.db);
    await portal.db
      .updateTable('work_unit_communication')
      .set({ next_update: new Date(Date.now() + 30 * MINUTE) })
      .where('work_unit_communication_id', '=', updated.id)
      .execute();
    await portal.db
      .updateTable('work_unit_communication')
      .set({ status: 'Cancelled', next_update: null })
      .where('work_unit_communication_id', '=', closed.id)
      .execute();
    for (const made of [updated, closed]) {
      const [job] = await jobsOf(`wucomm:next-update:${made.id}:`);
      await runJob(job!);
      expect(await outboxOf(`wucomm:next-update:${made.id}:`)).toHaveLength(0);
    }
  });
});

describe('the published external report', () => {
  const publish = (user: string, id: string) =>
    portal.as(user, { method: 'POST', url: `/v1/workunitcommunications/${id}/externalReport` });
  const revoke = (user: string, id: string) =>
    portal.as(user, { method: 'DELETE', url: `/v1/workunitcommunications/${id}/externalReport` });
  let address = 0;
  /** Anyone on the internet: no token, an address of its own so the rate limit of one test does not touch another. */
  const visit = (path: string, remoteAddress = `198.51.100.${++address}`) =>
    portal.app.inject({ method: 'GET', url: path, remoteAddress });
  const apiPath = (reportPath: string) => `/v1/public${reportPath}`;

  it('publishes an unguessable link that anyone can read without signing in, showing only what a customer may see', async () => {
    const tenant = await createStaffedTenant(portal, { name: `Public tenant ${unique()}` });
    const made = await makeCommunication({
      tenantId: tenant.tenantId,
      title: 'Public outage',
      serviceManager: 'secret.manager@contoso.example',
      nextUpdate: new Date(Date.now() + 30 * MINUTE),
      nextInternalUpdate: new Date(Date.now() + 10 * MINUTE),
    });
    const published = await publish(tenant.userName, made.id);
    expect(published.statusCode, published.body).toBe(200);
    const { externalReportPath } = published.json<{ externalReportPath: string }>();
    expect(externalReportPath).toMatch(/^\/status\/[A-Za-z0-9_-]{32}$/);

    const response = await visit(apiPath(externalReportPath));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const report = response.json<{ activities: { details: string }[] } & Record<string, unknown>>();
    // Exactly the public report's fields, dates as ISO text.
    expect(Object.keys(report).sort()).toEqual(Object.keys(publicCommunicationReportSchema.shape).sort());
    const activityFields = Object.keys(publicCommunicationReportSchema.shape.activities.element.shape).sort();
    for (const activity of report.activities) expect(Object.keys(activity).sort()).toEqual(activityFields);
    expect(new Date(String(report.modified)).toISOString()).toBe(report.modified);
    expect(report).toMatchObject({
      publicWorkUnitCommunicationId: made.publicId,
      title: 'Public outage',
      tenantName: tenant.name,
      status: 'Investigating',
      currentImpact: 'Delayed mail',
    });
    expect(report.activities.map((activity) => activity.details)).toEqual(['Queues drained on the relay.']);
    for (const hidden of [
      'secret.manager',
      'bridge.example',
      'Page the vendor',
      'serviceManager',
      'internalBridge',
      'nextInternalUpdate',
      'isCustomerFacing',
      made.id,
    ])
      expect(response.body).not.toContain(hidden);
    // The same report under /api.
    expect((await visit(`/api${apiPath(externalReportPath)}`)).json()).toEqual(response.json());
  });

  it('keeps the link when published again; a revoke makes the link answer 404 at once, and publishing again makes a new one', async () => {
    const made = await makeCommunication();
    const first = (await publish('operator', made.id)).json<{ externalReportPath: string }>().externalReportPath;
    expect((await publish('operator', made.id)).json<{ externalReportPath: string }>().externalReportPath).toBe(first);

    const revoked = await revoke('operator', made.id);
    expect(revoked.statusCode).toBe(204);
    const gone = await visit(apiPath(first));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: COMMUNICATION_MESSAGES.reportNotPublished });
    // Revoking what is not published is no error.
    expect((await revoke('operator', made.id)).statusCode).toBe(204);

    const second = (await publish('operator', made.id)).json<{ externalReportPath: string }>().externalReportPath;
    expect(second).not.toBe(first);
    expect((await visit(apiPath(second))).statusCode).toBe(200);
    expect((await visit(apiPath(first))).statusCode).toBe(404);
  });

  it('answers 404 for a link that never existed, whatever its shape', async () => {
    for (const token of ['A'.repeat(32), 'short', "x'; DROP TABLE tenant; --"]) {
      const response = await visit(`/v1/public/status/${encodeURIComponent(token)}`);
      expect(response.statusCode, token).toBe(404);
      expect(response.json()).toEqual({ message: COMMUNICATION_MESSAGES.reportNotPublished });
    }
  });

  it("lets no one publish or revoke another tenant's report, nor without the edit permission", async () => {
    const theirs = await makeCommunication({ tenantId: DEMO.fabrikam });
    expect((await publish('operator', theirs.id)).statusCode).toBe(404);
    const published = await publish('operator2', theirs.id);
    expect(published.statusCode).toBe(200);
    const path = published.json<{ externalReportPath: string }>().externalReportPath;
    expect((await revoke('operator', theirs.id)).statusCode).toBe(404);
    expect((await visit(apiPath(path))).statusCode).toBe(200);

    const mine = await makeCommunication();
    expect((await publish('enduser', mine.id)).statusCode).toBe(403);
    expect((await revoke('enduser', mine.id)).statusCode).toBe(403);
    expect(
      (await portal.app.inject({ method: 'POST', url: `/v1/workunitcommunications/${mine.id}/externalReport` }))
        .statusCode,
    ).toBe(401);
    expect((await publish('operator', crypto.randomUUID())).statusCode).toBe(404);
    expect((await publish('operator', 'not-an-id')).statusCode).toBe(400);
  });

  it('limits how often one address may read reports', async () => {
    const made = await makeCommunication();
    const path = apiPath(
      (await publish('operator', made.id)).json<{ externalReportPath: string }>().externalReportPath,
    );
    const statuses: number[] = [];
    for (let i = 0; i <= PUBLIC_REPORT_RATE_LIMIT.max; i++)
      statuses.push((await visit(path, '203.0.113.77')).statusCode);
    expect(statuses).toEqual([...Array<number>(PUBLIC_REPORT_RATE_LIMIT.max).fill(200), 429]);
    // Another address is not held back.
    expect((await visit(path, '203.0.113.78')).statusCode).toBe(200);
  });
});
