import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_VIEW_MESSAGES, type SavedView } from '@cfs/contracts/saved-views';
import { DEMO } from '../src/db/demo-ids.js';
import { BASE_ROLES } from '../src/db/seed.js';
import { createLocalUser, createUserIn, unique } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

const PATH = '/v1/savedviews/workunits';
let portal: TestPortal;
/** An operator of Contoso with a display name of its own: the owner the views name. */
const owner = { userName: `owner-${unique()}`, displayName: `Owner ${unique()}` };
beforeAll(async () => {
  portal = await createTestPortal();
  await createUserIn(portal, owner.userName, BASE_ROLES.Operator?.permissions ?? [], DEMO.contoso, {
    displayName: owner.displayName,
  });
  // A second operator of Contoso, to see what one user's views show another.
  await createLocalUser(portal, DEMO.contoso, { userName: 'colleague', displayName: 'Cora Colleague', groups: [] });
});
afterAll(async () => {
  await portal?.close();
});

const state = {
  filters: [{ id: 'stateId', field: 'stateId', operator: 'isAnyOf', value: [1, 2] }],
  sort: [{ field: 'created', direction: 'desc' }],
  columns: { tenant: false },
  search: 'router',
  exactMatch: true,
};

async function save(user: string, body: Record<string, unknown>): Promise<SavedView> {
  const response = await portal.as(user, {
    method: 'PUT',
    url: PATH,
    payload: { tenantId: DEMO.contoso, state, ...body },
  });
  if (response.statusCode !== 200) throw new Error(`save: ${response.statusCode} ${response.body}`);
  return response.json<SavedView>();
}
const names = async (user: string, tenantId: string = DEMO.contoso) =>
  (await portal.as(user, { method: 'GET', url: `${PATH}?tenantId=${tenantId}` }))
    .json<{ value: SavedView[] }>()
    .value.map((view) => view.name);

describe('saved views', () => {
  it('keeps the filters, sort, columns and search of a view for its owner only', async () => {
    const view = await save(owner.userName, { name: 'My open incidents' });
    expect(view).toMatchObject({
      name: 'My open incidents',
      shared: false,
      mine: true,
      ownerName: owner.displayName,
      state,
    });
    const listed = (await portal.as(owner.userName, { method: 'GET', url: `${PATH}?tenantId=${DEMO.contoso}` })).json<{
      value: SavedView[];
    }>().value;
    expect(listed.find((v) => v.savedViewId === view.savedViewId)?.state).toEqual(state);
    expect(await names('colleague')).not.toContain('My open incidents');
  });

  it('offers a shared view to everyone of the tenant, read-only to all but its owner', async () => {
    const view = await save(owner.userName, { name: 'Team board', shared: true });
    const seen = (await portal.as('colleague', { method: 'GET', url: `${PATH}?tenantId=${DEMO.contoso}` })).json<{
      value: SavedView[];
    }>().value;
    expect(seen.find((v) => v.savedViewId === view.savedViewId)).toMatchObject({
      name: 'Team board',
      mine: false,
      ownerName: owner.displayName,
    });

    const rename = await portal.as('colleague', {
      method: 'POST',
      url: `${PATH}/${view.savedViewId}`,
      payload: { name: 'Taken over', shared: true, state },
    });
    expect(rename.statusCode).toBe(404);
    const remove = await portal.as('colleague', { method: 'DELETE', url: `${PATH}/${view.savedViewId}` });
    expect(remove.statusCode).toBe(404);
    expect(await names(owner.userName)).toContain('Team board');

    const unshare = await portal.as(owner.userName, {
      method: 'POST',
      url: `${PATH}/${view.savedViewId}`,
      payload: { name: 'Team board', shared: false, state },
    });
    expect(unshare.json<SavedView>().shared).toBe(false);
    expect(await names('colleague')).not.toContain('Team board');
  });

  it("keeps views to their tenant: another tenant's users never see them, even shared", async () => {
    const view = await save('operator', { name: `Contoso only ${unique()}`, shared: true });
    // An administrator's shared view in Fabrikam is listed there; Contoso's shared view is not.
    const theirs = await save('admin', { tenantId: DEMO.fabrikam, name: `Fabrikam board ${unique()}`, shared: true });
    const fabrikamNames = await names('admin', DEMO.fabrikam);
    expect(fabrikamNames).toContain(theirs.name);
    expect(fabrikamNames).not.toContain(view.name);
    const asked = await portal.as('operator2', { method: 'GET', url: `${PATH}?tenantId=${DEMO.contoso}` });
    expect(asked.statusCode).toBe(404);
    expect((await portal.as('operator2', { method: 'DELETE', url: `${PATH}/${view.savedViewId}` })).statusCode).toBe(
      404,
    );
    const intoOther = await portal.as('operator', {
      method: 'PUT',
      url: PATH,
      payload: { tenantId: DEMO.fabrikam, name: 'Sneaky', state },
    });
    expect(intoOther.statusCode).toBe(404);
  });

  it('refuses a second view of the same name for the same owner, and a view without a name', async () => {
    await save('operator', { name: 'Duplicates' });
    const again = await portal.as('operator', {
      method: 'PUT',
      url: PATH,
      payload: { tenantId: DEMO.contoso, name: 'duplicates', state },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ errors: Record<string, string[]> }>().errors.name).toEqual([SAVED_VIEW_MESSAGES.nameTaken]);
    // Another user may use the same name.
    await save('colleague', { name: 'Duplicates' });
    const unnamed = await portal.as('operator', {
      method: 'PUT',
      url: PATH,
      payload: { tenantId: DEMO.contoso, name: '  ', state },
    });
    expect(unnamed.json<{ errors: Record<string, string[]> }>().errors.name).toEqual([
      SAVED_VIEW_MESSAGES.nameRequired,
    ]);
  });

  it('deletes a view for its owner', async () => {
    const view = await save('operator', { name: 'Short-lived' });
    const response = await portal.as('operator', { method: 'DELETE', url: `${PATH}/${view.savedViewId}` });
    expect(response.statusCode).toBe(204);
    expect(await names('operator')).not.toContain('Short-lived');
  });
});
