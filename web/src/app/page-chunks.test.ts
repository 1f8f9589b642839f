import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageModules } from '../../vite-early-start';
import { AREA_PAGES } from './areas';
import { resolutionCenterPage } from '../features/resolutioncenter/area';
import type { PageChunks } from '../auth/page-chunk-list';
import { pageChunkFiles } from '../auth/page-chunks';

const TENANT = '3f8e0d3c-5b1e-4a53-9a5d-1b2c3d4e5f60';
const CHUNKS: PageChunks = {
  files: ['assets/shell.js', 'assets/home.js', 'assets/grid.js', 'assets/work-units.js', 'assets/packet.js'],
  pages: [
    ['', [0, 1]],
    ['workunitsv2', [0, 3, 2]],
    ['packets/:id', [0, 4]],
  ],
};

describe('the scripts of the page being opened', () => {
  it('are the scripts of the page at its path, under a tenant or without one', () => {
    const workUnits = ['assets/shell.js', 'assets/work-units.js', 'assets/grid.js'];
    expect(pageChunkFiles(CHUNKS, `/${TENANT}/workunitsv2`)).toEqual(workUnits);
    expect(pageChunkFiles(CHUNKS, '/workunitsv2')).toEqual(workUnits);
    expect(pageChunkFiles(CHUNKS, `/${TENANT}/workunitsv2/`)).toEqual(workUnits);
    expect(pageChunkFiles(CHUNKS, `/${TENANT}`)).toEqual(['assets/shell.js', 'assets/home.js']);
    expect(pageChunkFiles(CHUNKS, `/${TENANT}/packets/device-7`)).toEqual(['assets/shell.js', 'assets/packet.js']);
  });

  it('are none where no page answers', () => {
    expect(pageChunkFiles(CHUNKS, `/${TENANT}/nosuchpage`)).toEqual([]);
    expect(pageChunkFiles(CHUNKS, `/${TENANT}/packets`)).toEqual([]);
    expect(pageChunkFiles(CHUNKS, `/${TENANT}/workunitsv2/extra`)).toEqual([]);
    expect(pageChunkFiles(CHUNKS, '/not-a-tenant/workunitsv2')).toEqual([]);
    expect(pageChunkFiles(CHUNKS, '/')).toEqual([]);
  });

  it('are read by the build for every page the areas declare, each with the module it loads', async () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const found = pageModules(root);
    const declared = [...AREA_PAGES, resolutionCenterPage];
    expect(found.map((page) => page.path).sort()).toEqual(['', ...declared.map((page) => page.path)].sort());
    for (const page of declared) {
      const { module } = found.find((candidate) => candidate.path === page.path)!;
      // The module the build found is the one the page loads.
      expect(await import(path.join(root, module))).toBe(await page.load());
    }
  }, 60_000);
});
