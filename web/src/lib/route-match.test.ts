import { describe, expect, test } from 'vitest';
import { routes } from '../app/router';
import { matchRoutes, pathScore, type RouteObject } from './route-match';

const page =
  (name: string): RouteObject['load'] =>
  () =>
    Promise.resolve({ default: () => name });

/** The portal's shape in small: a tenant segment, a layout, pages under it, and catch-alls. */
const tree: RouteObject[] = [
  {
    children: [
      { path: '/user/login', load: page('login') },
      { path: '/status/:token', load: page('status') },
      {
        path: '/:tenantId',
        children: [
          {
            load: page('shell'),
            children: [
              { index: true, load: page('home') },
              { path: 'tenants', load: page('tenants') },
              { path: 'packets/:id', load: page('packet') },
            ],
          },
          { path: '*', load: page('not found in tenant') },
        ],
      },
      { path: '*', load: page('not found') },
    ],
  },
];

const leaf = (pathname: string, from: readonly RouteObject[] = tree) => matchRoutes(from, pathname)?.routes.at(-1);

describe('matchRoutes', () => {
  test('a word beats a parameter and a parameter beats the rest, whatever the order they are declared in', () => {
    expect(leaf('/user/login')?.path).toBe('/user/login');
    expect(leaf('/t1/tenants')?.path).toBe('tenants');
    expect(leaf('/t1/unknown')).toBe(tree[0]!.children![2]!.children![1]);
    expect(leaf('/')).toBe(tree[0]!.children![3]);
  });

  test('a parent’s own address is its index route, inside every layout on the way', () => {
    const match = matchRoutes(tree, '/t1');
    expect(match?.routes.at(-1)?.index).toBe(true);
    expect(match?.routes.map((route) => route.path)).toEqual([undefined, '/:tenantId', undefined, undefined]);
    expect(match?.params).toEqual({ tenantId: 't1' });
  });

  test('parameters are decoded, every route sees those of the whole path, and letters match in any case', () => {
    expect(matchRoutes(tree, '/T1/Packets/a%20b')?.params).toEqual({ tenantId: 'T1', id: 'a b' });
    expect(leaf('/t1/TENANTS/')?.path).toBe('tenants');
    // A malformed escape is kept as written rather than failing the page.
    expect(matchRoutes(tree, '/status/%E0%A4%A')?.params).toEqual({ token: '%E0%A4%A' });
  });

  test('the rest of a path is the `*` parameter, and a path no route answers has no match', () => {
    expect(matchRoutes(tree, '/t1/a/b')?.params).toEqual({ tenantId: 't1', '*': 'a/b' });
    expect(matchRoutes([{ path: '/only', load: page('only') }], '/other')).toBeNull();
  });

  test('siblings of equal rank answer in their order', () => {
    const first: RouteObject = { path: ':a', load: page('first') };
    const second: RouteObject = { path: ':b', load: page('second') };
    expect(leaf('/x', [{ path: '/', children: [first, second] }])).toBe(first);
    expect(leaf('/x', [{ path: '/', children: [second, first] }])).toBe(second);
  });

  test('ranks: words 10, parameters 3, empty segments 1, an index 2 more, a `*` 2 less', () => {
    expect(pathScore('/tenants')).toBe(2 + 1 + 10);
    expect(pathScore('/:tenantId')).toBe(2 + 1 + 3);
    expect(pathScore('/:tenantId', true)).toBe(2 + 1 + 3 + 2);
    expect(pathScore('/:tenantId/*')).toBe(3 - 2 + 1 + 3);
  });

  test('the portal’s own routes: each address reaches the page the spec gives it', () => {
    const tenant = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
    const pathOf = (pathname: string) =>
      matchRoutes(routes, pathname)
        ?.routes.map((route) => route.path ?? (route.index ? '(index)' : '·'))
        .join(' ');
    expect(pathOf('/user/login')).toBe('· /user/login');
    expect(pathOf(`/${tenant}/user/login`)).toBe('· /:tenantId/user/login');
    expect(pathOf('/')).toBe('· · (index)');
    expect(pathOf('/workunitsv2')).toBe('· · /workunitsv2 · (index)');
    expect(pathOf(`/${tenant}/workunitsv2`)).toBe('· /:tenantId · · workunitsv2');
    expect(pathOf(`/${tenant}`)).toBe('· /:tenantId · · (index)');
    expect(pathOf(`/${tenant}/resolutioncenter`)).toBe('· /:tenantId resolutioncenter (index)');
    expect(pathOf(`/${tenant}/nothing-here`)).toBe('· /:tenantId *');
    expect(pathOf('/status/abc')).toBe('· /status/:token');
  });
});
