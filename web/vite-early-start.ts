import path from 'node:path';
import type { Plugin } from 'vite';

/** The script that sends the page's first calls (`src/auth/early-start.ts`), an entry of its own. */
const ENTRY = 'src/early-start-entry.ts';
const NAME = 'early-start';

/**
 * Builds `src/early-start-entry.ts` as an entry of its own and puts it into index.html as an
 * async module script ahead of the app's: it runs as soon as its few hundred bytes arrive, not
 * after the app's libraries (the app's module scripts are one entry whose code runs only once
 * all its imports have loaded).
 */
export function earlyStart(): Plugin {
  return {
    name: 'cfs-early-start',
    config(config, { command }) {
      if (command !== 'build') return;
      const root = path.resolve(config.root ?? process.cwd());
      const input = { index: path.join(root, 'index.html'), [NAME]: path.join(root, ENTRY) };
      return { build: { rolldownOptions: { input } } };
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunk = context.bundle
          ? Object.values(context.bundle).find((file) => file.type === 'chunk' && file.isEntry && file.name === NAME)
          : undefined;
        const src = chunk ? `/${chunk.fileName}` : `/${ENTRY}`;
        return [{ tag: 'script', attrs: { type: 'module', async: true, src }, injectTo: 'head-prepend' }];
      },
    },
  };
}
