import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { PAGE_CHUNKS_ID, type PageChunks } from './src/auth/page-chunk-list';

/** The script that sends the page's first calls (`src/auth/early-start.ts`), an entry of its own. */
const ENTRY = 'src/early-start-entry.ts';
const NAME = 'early-start';

/** The layouts the router puts pages in (`src/app/router.tsx`): the Resolution Center's own, the shell for every other. */
const SHELL_LAYOUT = 'src/app/shell-layout';
const LAYOUTS: Record<string, string> = { resolutioncenter: 'src/app/resolution-center-layout' };
/** Home, the shell's index page. */
const HOME_PAGE = { path: '', module: 'src/app/home-page' };

/** A page's path under the tenant and its module (a path under the app's root, without extension). */
export interface PageModulePath {
  path: string;
  module: string;
}

/**
 * The pages the areas declare (`src/features/<area>/area.ts`: each page's `path` and its
 * `load: () => import('./…')`), read from their source, with Home.
 */
export function pageModules(root: string): PageModulePath[] {
  const features = path.join(root, 'src', 'features');
  const pages = [HOME_PAGE];
  for (const area of fs.readdirSync(features).sort()) {
    const file = path.join(features, area, 'area.ts');
    if (!fs.existsSync(file)) continue;
    const source = fs.readFileSync(file, 'utf8');
    for (const [, pagePath, load] of source.matchAll(/\bpath: '([^']*)',[\s\S]*?\bload: \(\) => import\('([^']+)'\)/g))
      pages.push({ path: pagePath!, module: path.relative(root, path.resolve(path.dirname(file), load!)) });
  }
  return pages;
}

/**
 * Each page's scripts in the built bundle: its layout's chunk and its own, with the chunks they
 * import, less those index.html already asks for (the app entry's).
 */
export function pageChunks(bundle: Rollup.OutputBundle, root: string): PageChunks {
  const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
  const byModule = new Map(
    chunks.flatMap((chunk) =>
      chunk.facadeModuleId ? [[chunk.facadeModuleId.replace(/\.tsx?$/, ''), chunk] as const] : [],
    ),
  );
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (start: Rollup.OutputChunk | undefined, into = new Set<string>()) => {
    if (!start || into.has(start.fileName)) return into;
    into.add(start.fileName);
    for (const imported of start.imports) closure(byFile.get(imported), into);
    return into;
  };
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'index');
  const inIndexHtml = closure(entry);
  const moduleChunk = (module: string) => {
    const chunk = byModule.get(path.join(root, module));
    // A page or layout moved or renamed without this list following it fails the build.
    if (!chunk) throw new Error(`No chunk of ${module}: the page list of vite-early-start.ts is out of date`);
    return chunk;
  };
  const indexOf = new Map<string, number>();
  const pages = pageModules(root).map(({ path: pagePath, module }): PageChunks['pages'][number] => {
    const wanted = closure(moduleChunk(module), closure(moduleChunk(LAYOUTS[pagePath] ?? SHELL_LAYOUT)));
    const files = [...wanted].filter((file) => !inIndexHtml.has(file));
    for (const file of files) if (!indexOf.has(file)) indexOf.set(file, indexOf.size);
    return [pagePath, files.map((file) => indexOf.get(file)!)];
  });
  return { files: [...indexOf.keys()], pages };
}

/**
 * Builds `src/early-start-entry.ts` as an entry of its own and puts it into index.html as an
 * async module script ahead of the app's: it runs as soon as its few hundred bytes arrive, not
 * after the app's libraries (the app's module scripts are one entry whose code runs only once
 * all its imports have loaded). With it, the scripts of each page (`pageChunks`), for it to ask
 * for the opened page's (`src/auth/page-chunks.ts`).
 */
export function earlyStart(): Plugin {
  let root = process.cwd();
  return {
    name: 'cfs-early-start',
    config(config, { command }) {
      if (command !== 'build') return;
      root = path.resolve(config.root ?? process.cwd());
      const input = { index: path.join(root, 'index.html'), [NAME]: path.join(root, ENTRY) };
      return { build: { rolldownOptions: { input } } };
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const { bundle } = context;
        const chunk = bundle
          ? Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry && file.name === NAME)
          : undefined;
        const src = chunk ? `/${chunk.fileName}` : `/${ENTRY}`;
        return [
          ...(bundle
            ? [
                {
                  tag: 'script',
                  attrs: { type: 'application/json', id: PAGE_CHUNKS_ID },
                  children: JSON.stringify(pageChunks(bundle, root)),
                  // After the charset (the first 1,024 bytes); read only once the configuration has answered.
                  injectTo: 'head' as const,
                },
              ]
            : []),
          { tag: 'script', attrs: { type: 'module', async: true, src }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}
