import { isGuid } from '@cfs/contracts/values/odata';
import { PAGE_CHUNKS_ID, type PageChunks } from './page-chunk-list';

/**
 * The scripts of each page, which the build writes into index.html (`vite-early-start.ts`) so
 * that the page's first script can ask for the opened page's code while the app's own scripts
 * still download: without them the router asks for the page's chunks (the grid's among them) only
 * once the app's libraries have run and its shell has rendered.
 *
 * Only plain data and the DOM are here: the page's first script holds nothing of the app's libraries.
 */

/**
 * The files of the page at `pathname`: `/{tenantId}/{path}`, or `/{path}` for the pages also
 * answered (or redirected) without a tenant. None for a path no page answers, nor for `/`.
 */
export function pageChunkFiles(chunks: PageChunks, pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  if (isGuid(segments[0])) segments.shift();
  // The site's root sends each user to a page of their own (Home, or the Resolution Center).
  else if (segments.length === 0) return [];
  const found = chunks.pages.find(([path]) => {
    const parts = path.split('/').filter(Boolean);
    return (
      parts.length === segments.length && parts.every((part, index) => part.startsWith(':') || part === segments[index])
    );
  });
  return (found?.[1] ?? []).flatMap((index) => chunks.files[index] ?? []);
}

/**
 * Asks for the scripts of the page at `pathname` as module preloads, as the app's own loader
 * would (it then finds them asked for already). Does nothing on a page built without the list.
 */
export function preloadPageChunks(pathname: string): void {
  const text = document.getElementById(PAGE_CHUNKS_ID)?.textContent;
  if (!text) return;
  let files: string[];
  try {
    const chunks = JSON.parse(text) as PageChunks;
    files = Array.isArray(chunks.files) && Array.isArray(chunks.pages) ? pageChunkFiles(chunks, pathname) : [];
  } catch {
    // A list it cannot read only costs the early start: the router asks for the page as usual.
    return;
  }
  for (const file of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.as = 'script';
    link.crossOrigin = '';
    link.href = `/${file}`;
    document.head.appendChild(link);
  }
}
