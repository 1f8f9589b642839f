import type { ComponentType, ReactNode } from 'react';

/**
 * The portal's routes and how an address finds its route (`router.tsx` renders them). A route is
 * a path, an element or a page loaded on first visit, and the routes nested in it; pathless
 * routes are layouts or guards around their children. The most specific path wins whatever the
 * order (a word beats a parameter, which beats `*`), siblings of equal rank in their order, as
 * in the common routers; letters match whatever their case.
 */
export interface RouteObject {
  /** Absolute (`/status/:token`) or under the parent's path (`tokens`); `:name` is a parameter, a final `*` the rest. */
  path?: string;
  /** The parent's own address. */
  index?: boolean;
  element?: ReactNode;
  /** The module of the page, loaded on first visit (a chunk of its own); it default-exports the page. */
  load?: () => Promise<{ default: ComponentType }>;
  children?: readonly RouteObject[];
}

/** An address's route: the routes from the outermost to the one that answers, and the parameters of the path. */
export interface RouteMatch {
  routes: readonly RouteObject[];
  params: Readonly<Record<string, string>>;
}

interface Branch {
  pattern: RegExp;
  names: string[];
  score: number;
  order: number[];
  routes: RouteObject[];
}

const PARAM = /^:[\w-]+$/;

/** The rank of a path: each word 10, each parameter 3, each empty segment 1, an index 2 more, a `*` 2 less. */
export function pathScore(path: string, index = false): number {
  const segments = path.split('/');
  let score = segments.length + (segments.includes('*') ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === '*') continue;
    score += PARAM.test(segment) ? 3 : segment === '' ? 1 : 10;
  }
  return score;
}

function joinPaths(parent: string, path: string | undefined): string {
  if (path === undefined) return parent || '/';
  const joined = path.startsWith('/') ? path : `${parent}/${path}`;
  return joined.replace(/\/{2,}/g, '/');
}

function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  let source = `^${path
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:([\w-]+)/g, (_, name: string) => {
      names.push(name);
      return '/([^\\/]+)';
    })}`;
  if (path.endsWith('*')) {
    names.push('*');
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else source += '\\/*$';
  return { pattern: new RegExp(source, 'i'), names };
}

function flatten(
  routes: readonly RouteObject[],
  parentPath: string,
  parents: RouteObject[],
  parentOrder: number[],
  into: Branch[],
): Branch[] {
  routes.forEach((route, index) => {
    const path = joinPaths(parentPath, route.index ? undefined : route.path);
    const chain = [...parents, route];
    const order = [...parentOrder, index];
    if (route.children?.length) flatten(route.children, path, chain, order, into);
    // A route without a path answers only through its children (a layout), unless it is an index.
    if (route.path === undefined && !route.index) return;
    into.push({ ...compile(path), score: pathScore(path, route.index), order, routes: chain });
  });
  return into;
}

/** Siblings of equal rank keep their order; other ties keep the order in which they were found. */
function compareOrder(a: number[], b: number[]): number {
  const siblings = a.length === b.length && a.slice(0, -1).every((value, index) => value === b[index]);
  return siblings ? a[a.length - 1]! - b[b.length - 1]! : 0;
}

const branchCache = new WeakMap<readonly RouteObject[], Branch[]>();

function branchesOf(routes: readonly RouteObject[]): Branch[] {
  let branches = branchCache.get(routes);
  if (!branches) {
    branches = flatten(routes, '', [], [], []).sort((a, b) => b.score - a.score || compareOrder(a.order, b.order));
    branchCache.set(routes, branches);
  }
  return branches;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The route that answers `pathname`, or null when none does. */
export function matchRoutes(routes: readonly RouteObject[], pathname: string): RouteMatch | null {
  for (const branch of branchesOf(routes)) {
    const found = branch.pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    branch.names.forEach((name, index) => {
      const value = found[index + 1];
      if (value !== undefined) params[name] = decode(value);
    });
    return { routes: branch.routes, params };
  }
  return null;
}
