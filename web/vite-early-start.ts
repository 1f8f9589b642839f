import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { build, type Plugin, type Rollup } from 'vite';
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
 * Builds `src/early-start-entry.ts` into one script with no imports (a build of its own, so that
 * nothing it shares with the app becomes a chunk it must wait for) and puts it into index.html as
 * an async module script ahead of the app's: it runs as soon as its few kilobytes arrive, beside
 * the app's libraries rather than after them (the app's module scripts are one entry whose code
 * runs only once all its imports have loaded). With it, the scripts of each page (`pageChunks`),
 * for it to ask for the opened page's (`src/auth/page-chunks.ts`).
 */
export function earlyStart(): Plugin {
  let root = process.cwd();
  let conditions: readonly string[] = [];
  let building = false;
  let fileName: string | undefined;
  return {
    name: 'cfs-early-start',
    configResolved(config) {
      root = config.root;
      conditions = config.resolve.conditions;
      building = config.command === 'build';
    },
    async buildStart() {
      if (!building) return;
      const output = await build({
        configFile: false,
        root,
        logLevel: 'silent',
        resolve: { conditions: [...conditions] },
        build: {
          write: false,
          minify: true,
          sourcemap: false,
          rolldownOptions: { input: path.join(root, ENTRY), output: { codeSplitting: false } },
        },
      });
      const [chunk, ...rest] = (Array.isArray(output) ? output : [output]).flatMap((result) =>
        'output' in result ? result.output : [],
      );
      if (!chunk || chunk.type !== 'chunk' || rest.some((file) => file.type === 'chunk'))
        throw new Error(`${ENTRY} did not build into one script`);
      const hash = createHash('sha256').update(chunk.code).digest('base64url').slice(0, 8);
      fileName = `assets/${NAME}-${hash}.js`;
      this.emitFile({ type: 'asset', fileName, source: chunk.code });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const { bundle } = context;
        // The dev server serves the entry from its source.
        if (!bundle || !fileName)
          return [
            { tag: 'script', attrs: { type: 'module', async: true, src: `/${ENTRY}` }, injectTo: 'head-prepend' },
          ];
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: PAGE_CHUNKS_ID },
            children: JSON.stringify(pageChunks(bundle, root)),
            // After the charset (the first 1,024 bytes); read only once the configuration has answered.
            injectTo: 'head' as const,
          },
          { tag: 'script', attrs: { type: 'module', async: true, src: `/${fileName}` }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}
