import { useMemo, useState } from 'react';
import type { GridRowId, GridRowSelectionModel } from '@mui/x-data-grid';

/**
 * The rows checked in a server-paged grid, kept across pages and refreshes (the grid is given
 * `keepNonExistentRowsSelected`): what a bulk action works on.
 *
 * @example
 *   const selection = useRowSelection();
 *   <ResourceGrid … bulk={{ selection, idField: 'workUnitId', actions: [{ label: 'Assign', onClick: () => assign(selection.ids) }] }} />
 */
export interface RowSelection {
  ids: readonly GridRowId[];
  set: (ids: readonly GridRowId[]) => void;
  clear: () => void;
}

export function useRowSelection(): RowSelection {
  const [ids, setIds] = useState<readonly GridRowId[]>([]);
  return useMemo(() => ({ ids, set: (next) => setIds([...new Set(next)]), clear: () => setIds([]) }), [ids]);
}

/** The grid's model for the selected ids. */
export function toSelectionModel(ids: readonly GridRowId[]): GridRowSelectionModel {
  return { type: 'include', ids: new Set(ids) };
}

/**
 * The ids a new model selects. The header checkbox answers "every row except these" ('exclude');
 * in a server-paged grid that means the rows on screen, plus those checked on other pages.
 */
export function selectedIds(
  model: GridRowSelectionModel,
  shown: readonly GridRowId[],
  previous: readonly GridRowId[],
): GridRowId[] {
  if (model.type === 'include') return [...model.ids];
  const onScreen = new Set(shown);
  return [...new Set([...previous.filter((id) => !onScreen.has(id)), ...shown.filter((id) => !model.ids.has(id))])];
}
