/**
 * The form of the page list the build writes into index.html (`vite-early-start.ts`) and the
 * page's first script reads (`page-chunks.ts`). It imports nothing: the build's configuration loads
 * it before any of the workspace's packages is built.
 */

/** The id of the JSON script element in index.html that holds the page chunks. */
export const PAGE_CHUNKS_ID = 'cfs-page-chunks';

export interface PageChunks {
  /** Every script file named below, from the site's root (`assets/…`). */
  files: string[];
  /** Each page's path under the tenant (`devices`, `packets/:id`; '' is Home) and the indexes of its files. */
  pages: [path: string, files: number[]][];
}
