import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES, type WorkUnit } from '@cfs/contracts/work-units';
import { WORK_UNIT_SEARCH_TEXTS } from '../src/areas/workunits/resource.js';
import { createTenantAs, workUnitSearch } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/**
 * The work units grid's search box (spec 001 §2) over the trigram index: the same rows as a check
 * of every field would find, whatever the term holds and wherever it matches.
 */

let portal: TestPortal;
let units: WorkUnit[];
let tenants: { tenantId: string; name: string }[];

beforeAll(async () => {
  portal = await createTestPortal();
  tenants = [
    await createTenantAs(portal, 'admin', { name: 'Zebracorp Logistics' }),
    await createTenantAs(portal, 'admin', { name: 'Quokka Services' }),
  ];
  const [zebra, quokka] = tenants.map((tenant) => tenant.tenantId);
  const bodies: Record<string, unknown>[] = [
    { tenantId: zebra, title: 'Printer jammed on floor 3' },
    { tenantId: zebra, title: 'Badge reader offline', severityId: 1 },
    { tenantId: quokka, title: 'Screen flickers', description: 'After the 50%_off\\sale promo banner loaded' },
    { tenantId: quokka, title: "O'Neil's laptop will not boot", description: 'Only the description says quasarfluff' },
    { tenantId: quokka, title: 'Ends with abc', referenceId: 'def starts the reference' },
    { tenantId: quokka, title: 'Discount of 50 percent off sale', description: 'no wildcards here' },
    {
      tenantId: quokka,
      title: 'VPN drops',
      referenceId: 'INC-77',
      assignedTo: 'tech@cfs.example',
      stakeHolderFullName: 'Ann Example',
      stakeHolderPhoneNumber: '+1 555 0100',
      stakeHolderEmailAddress: 'ann@example.com',
    },
  ];
  units = [];
  for (const body of bodies) {
    const response = await portal.as('admin', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: {
        workUnitId: -1,
        severityId: 2,
        stateId: WORK_UNIT_STATES.New,
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
        ...body,
      },
    });
    if (response.statusCode !== 200) throw new Error(`create: ${response.statusCode} ${response.body}`);
    units.push(response.json<WorkUnit>());
  }
});
afterAll(() => portal?.close());

/** The grid's list call in the two new tenants (as the tenant choice sends it), with the search box's filter. */
async function search(term: string, exactMatch = false): Promise<{ count: number; ids: number[] }> {
  const $filter = `tenantId in (${tenants.map((tenant) => tenant.tenantId).join(',')}) and ${workUnitSearch(term, exactMatch)}`;
  const query = new URLSearchParams({
    $filter,
    $count: 'true',
    $top: '50',
    $orderby: 'workUnitId asc',
    $expand: 'tenant,workUnitType',
  });
  const response = await portal.as('admin', { method: 'GET', url: `/v1/workunits?${query.toString()}` });
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json<{ '@odata.count': number; value: WorkUnit[] }>();
  return { count: answer['@odata.count'], ids: answer.value.map((unit) => unit.workUnitId) };
}

/** What a check of every searched field finds: each text field, the tenant's name, the id when the term is a number. */
function expected(term: string, exactMatch = false): { count: number; ids: number[] } {
  const tenantName = (unit: WorkUnit) => tenants.find((tenant) => tenant.tenantId === unit.tenantId)?.name ?? null;
  const holds = (value: string | null | undefined) =>
    typeof value === 'string' && (exactMatch ? value === term : value.toLowerCase().includes(term.toLowerCase()));
  const ids = units
    .filter(
      (unit) =>
        WORK_UNIT_SEARCH_TEXTS.some((field) => holds(unit[field])) ||
        holds(tenantName(unit)) ||
        (/^\d+$/.test(term) && unit.workUnitId === Number(term)),
    )
    .map((unit) => unit.workUnitId);
  return { count: ids.length, ids };
}

describe('the work units search', () => {
  it('finds units whose only match is the tenant name', async () => {
    const found = await search('zebracorp');
    expect(found).toEqual(expected('zebracorp'));
    expect(found.count).toBe(2);
  });

  it('finds a unit whose only match is its description, and one by its stakeholder, phone, reference or assignee', async () => {
    for (const term of ['quasarfluff', 'ann example', '555 0100', 'inc-77', 'tech@cfs', 'ANN@EXAMPLE.COM']) {
      const found = await search(term);
      expect(found, term).toEqual(expected(term));
      expect(found.count, term).toBe(1);
    }
  });

  it('takes %, _, \\ and quotes in the term as themselves', async () => {
    for (const term of ['50%_off\\sale', '50%_off', '%_o', "o'neil's", '\\sa']) {
      const found = await search(term);
      expect(found, term).toEqual(expected(term));
      expect(found.count, term).toBe(1);
    }
    expect(await search('50%')).toEqual(expected('50%'));
  });

  it('does not match a term across two fields', async () => {
    expect(await search('abcdef')).toEqual({ count: 0, ids: [] });
    expect(await search('abc def')).toEqual({ count: 0, ids: [] });
    expect((await search('abc')).count).toBe(1);
  });

  it('answers terms of one and two characters, which hold no trigram, by checking every field', async () => {
    for (const term of ['q', 'e', 'ab', '50', '%', '_', "'", '3', 'Zz']) {
      expect(await search(term), term).toEqual(expected(term));
    }
    expect((await search('e')).count).toBe(units.length);
  });

  it('finds a unit by its id when the term is a number', async () => {
    const unit = units[3]!;
    const found = await search(String(unit.workUnitId));
    expect(found.ids).toContain(unit.workUnitId);
    expect(found).toEqual(expected(String(unit.workUnitId)));
  });

  it('with Exact Match compares each field, and the tenant name, whole and with its case', async () => {
    for (const term of ['VPN drops', 'vpn drops', 'Zebracorp Logistics', 'INC-77', '+1 555 0100', 'VPN']) {
      expect(await search(term, true), term).toEqual(expected(term, true));
    }
    expect((await search('Zebracorp Logistics', true)).count).toBe(2);
    expect((await search('VPN drops', true)).count).toBe(1);
  });

  it('a CSV export of a search holds the same rows', async () => {
    const $filter = `tenantId in (${tenants.map((tenant) => tenant.tenantId).join(',')}) and ${workUnitSearch('zebracorp')}`;
    const query = new URLSearchParams({ $filter, $orderby: 'workUnitId asc', $select: 'workUnitId' });
    const response = await portal.as('admin', { method: 'GET', url: `/v1/workunits/Export()?${query.toString()}` });
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.body.trim().split(/\r?\n/).slice(1).map(Number);
    expect(ids).toEqual(expected('zebracorp').ids);
  });
});
