import { describe, expect, it } from 'vitest';
import type { Communication, CommunicationActivity, PublicReport } from './api';
import { externalReport, internalReport, publishedReport } from './report-model';

const communication: Communication = {
  workUnitCommunicationId: '11111111-1111-4111-8111-111111111111',
  publicWorkUnitCommunicationId: 42,
  title: 'Mail delays',
  tenantId: '22222222-2222-4222-8222-222222222222',
  tenant: { name: 'Contoso', internalNotificationEmailAddress: 'ops@contoso.test' },
  serviceManager: 'manager@contoso.test',
  status: 'ConfirmedImpact',
  details: 'Outbound mail is queued.',
  customerAssistanceRequired: true,
  rootCause: null,
  eventStarted: '2026-03-05T19:07:09Z',
  eventEngaged: '2026-03-05T19:30:00Z',
  eventMitigated: null,
  eventResolved: null,
  nextUpdate: '2026-03-05T21:00:00Z',
  nextInternalUpdate: '2026-03-05T20:00:00Z',
  maximumImpact: 'All mail',
  currentImpact: 'Some mail',
  impactedServices: 'Mail',
  internalBridge: 'bridge-7',
  isOverdue: false,
  isInternalOverdue: false,
  externalReportPath: null,
  changeWorkUnitId: null,
  created: '2026-03-05T19:10:00Z',
  createdBy: 'operator',
  modified: '2026-03-05T19:40:00Z',
  userChanged: null,
  userChangedBy: null,
  workUnits: [
    {
      workUnitId: 7,
      title: 'Queue stuck',
      stateId: 3,
      severityId: 1,
      tenantId: '22222222-2222-4222-8222-222222222222',
      tenant: { name: 'Contoso' },
    },
  ],
};

const activity = (
  details: string,
  isCustomerFacing: boolean,
  isComplete: boolean,
  created: string,
): CommunicationActivity => ({
  workUnitCommunicationActivityId: `33333333-3333-4333-8333-33333333333${details.length % 10}`,
  workUnitCommunicationId: communication.workUnitCommunicationId,
  activityType: isComplete ? 'ResolutionActivity' : 'TaskActivity',
  details,
  isCustomerFacing,
  isComplete,
  completed: isComplete ? created : null,
  created,
  createdBy: 'operator',
});

const activities = [
  activity('Restart the relay', true, false, '2026-03-05T19:50:00Z'),
  activity('Paged the mail team', false, true, '2026-03-05T19:45:00Z'),
  activity('Queue drained', true, true, '2026-03-05T19:48:00Z'),
];
const value = (report: ReturnType<typeof externalReport>, label: string) =>
  report.rows.find((row) => row.label === label)?.value;

describe('communication reports', () => {
  it('shows a customer only customer-facing activities and nothing internal', () => {
    const report = externalReport(communication, activities, 'UTC');
    expect(report.heading).toBe('WUCOMM #42: Mail delays');
    expect(report.activities.map((row) => row.details)).toEqual(['Queue drained', 'Restart the relay']);
    expect(report.activities[0]).not.toHaveProperty('customerFacing');
    const labels = report.rows.map((row) => row.label);
    for (const hidden of ['Service Manager', 'Internal Bridge', 'Next Internal Update', 'Event Engaged'])
      expect(labels).not.toContain(hidden);
    expect(value(report, 'Status')).toBe('Open - Confirmed Impact');
    expect(value(report, 'Event Started')).toBe('5/Mar/2026 19:07 UTC');
    expect(value(report, 'Customer Assistance Required')).toBe('Yes');
  });

  it('shows staff everything: every activity, past steps first, the internal bridge and update', () => {
    const report = internalReport(communication, activities, 'UTC');
    expect(report.activities.map((row) => [row.step, row.details, row.customerFacing])).toEqual([
      ['Past step', 'Paged the mail team', 'No'],
      ['Past step', 'Queue drained', 'Yes'],
      ['Next step', 'Restart the relay', 'Yes'],
    ]);
    expect(value(report, 'Internal Bridge')).toBe('bridge-7');
    expect(value(report, 'Next Internal Update')).toBe('5/Mar/2026 20:00 UTC');
    expect(value(report, 'Service Manager')).toBe('manager@contoso.test');
    expect(value(report, 'Linked Work Units')).toBe('#7 Queue stuck');
  });

  it('reads the published report', () => {
    const published: PublicReport = {
      publicWorkUnitCommunicationId: 42,
      title: 'Mail delays',
      tenantName: 'Contoso',
      status: 'Resolved',
      details: null,
      customerAssistanceRequired: false,
      rootCause: 'A full disk',
      eventStarted: null,
      eventMitigated: null,
      eventResolved: '2026-03-06T01:00:00Z',
      nextUpdate: null,
      currentImpact: null,
      maximumImpact: null,
      impactedServices: null,
      modified: '2026-03-06T01:00:00Z',
      activities: [
        {
          activityType: 'ResolutionActivity',
          details: 'Queue drained',
          isComplete: true,
          completed: '2026-03-05T19:48:00Z',
          created: '2026-03-05T19:48:00Z',
        },
      ],
    };
    const report = publishedReport(published, 'UTC');
    expect(value(report, 'Status')).toBe('Closed - Resolved');
    expect(value(report, 'Root Cause')).toBe('A full disk');
    expect(report.activities).toEqual([
      {
        step: 'Past step',
        details: 'Queue drained',
        completed: '5/Mar/2026 19:48 UTC',
        created: '5/Mar/2026 19:48 UTC',
      },
    ]);
  });
});
