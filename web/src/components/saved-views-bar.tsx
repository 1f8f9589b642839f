import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import GroupsIcon from '@mui/icons-material/GroupsOutlined';
import type { SavedView, SavedViewGrid } from '@cfs/contracts/saved-views';
import { SAVED_VIEW_MESSAGES, SAVED_VIEW_NAME_MAX } from '@cfs/contracts/values/saved-views';
import { ApiError } from '../lib/api-client';
import { showsView, viewOf, type ListView } from '../lib/list-state';
import { useDeleteView, useSaveView, useSavedViews } from '../lib/saved-views';
import { useToast } from '../lib/toast';
import type { ListStateApi } from '../lib/url-state';
import { ConfirmDialog } from './confirm-dialog';

/** A view every user of the grid has, defined by the area (work units: "Assigned to me"). */
export interface BuiltInView {
  name: string;
  view: ListView;
}

export interface SavedViewsBarProps {
  grid: SavedViewGrid;
  /** The tenant the views belong to: the page's tenant. */
  tenantId: string | null;
  list: ListStateApi;
  builtIn?: readonly BuiltInView[];
}

/**
 * Saved views above a grid's filters: the area's built-in views, then the user's own and those
 * shared with the tenant, each applied with one click (filters, sort and columns, from page 0);
 * the view the list shows is highlighted. "Save View" keeps the list's filters, sort and columns
 * under a name, optionally shared; the owner deletes a view with the chip's ×.
 *
 * @example
 *   <SavedViewsBar grid="workunits" tenantId={tenantId} list={list}
 *     builtIn={[{ name: 'Assigned to me', view: { filters: [...], sort: [...], columns: {} } }]} />
 */
export function SavedViewsBar({ grid, tenantId, list, builtIn = [] }: SavedViewsBarProps) {
  const views = useSavedViews(grid, tenantId);
  const remove = useDeleteView(grid, tenantId);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<SavedView | null>(null);

  const chip = (key: string, name: string, view: ListView, extra: { shared?: boolean; onDelete?: () => void } = {}) => {
    const active = showsView(list.state, view);
    return (
      <Chip
        key={key}
        label={name}
        size="small"
        color="primary"
        variant={active ? 'filled' : 'outlined'}
        aria-pressed={active}
        icon={extra.shared ? <GroupsIcon aria-label="Shared with the tenant" /> : undefined}
        onClick={() => list.applyView(view)}
        onDelete={extra.onDelete}
      />
    );
  };

  return (
    <Box
      role="toolbar"
      aria-label="Saved views"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}
    >
      <Typography variant="body2" color="text.secondary">
        Views:
      </Typography>
      {builtIn.map((item) => chip(`built-in:${item.name}`, item.name, item.view))}
      {(views.data ?? []).map((saved) =>
        chip(saved.savedViewId, saved.mine ? saved.name : `${saved.name} (${saved.ownerName})`, saved.state, {
          shared: saved.shared,
          onDelete: saved.mine ? () => setDeleting(saved) : undefined,
        }),
      )}
      <Button size="small" startIcon={<BookmarkAddIcon />} onClick={() => setSaving(true)} disabled={tenantId === null}>
        Save View
      </Button>
      {saving && (
        <SaveViewDialog grid={grid} tenantId={tenantId} view={viewOf(list.state)} onClose={() => setSaving(false)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete View"
        text={`Are you sure you want to delete the view "${deleting?.name ?? ''}"?`}
        onConfirm={() =>
          deleting ? remove.mutateAsync(deleting.savedViewId).then(() => setDeleting(null)) : undefined
        }
        onCancel={() => setDeleting(null)}
      />
    </Box>
  );
}

function SaveViewDialog({
  grid,
  tenantId,
  view,
  onClose,
}: {
  grid: SavedViewGrid;
  tenantId: string | null;
  view: ListView;
  onClose: () => void;
}) {
  const save = useSaveView(grid, tenantId);
  const toast = useToast();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed) {
      setError(SAVED_VIEW_MESSAGES.nameRequired);
      return;
    }
    try {
      const saved = await save.mutateAsync({
        tenantId: tenantId ?? '',
        name: trimmed,
        shared,
        state: {
          filters: [...view.filters],
          sort: [...view.sort],
          columns: { ...view.columns },
          search: view.search,
          exactMatch: view.exactMatch,
        },
      });
      toast.success(SAVED_VIEW_MESSAGES.saved(saved.name));
      onClose();
    } catch (failure) {
      // The name's own text (taken, too long) goes on the field; other failures were toasted.
      const texts = failure instanceof ApiError ? failure.body?.errors?.name : undefined;
      if (texts?.length) setError(texts.join(' '));
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Save View</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary">
          Keeps the list&apos;s filters, sort and columns under a name.
        </Typography>
        <TextField
          autoFocus
          fullWidth
          margin="normal"
          label="Name"
          required
          value={name}
          error={error !== null}
          helperText={error}
          slotProps={{ htmlInput: { maxLength: SAVED_VIEW_NAME_MAX } }}
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void submit();
          }}
        />
        <FormControlLabel
          control={<Checkbox checked={shared} onChange={(event) => setShared(event.target.checked)} />}
          label="Share with everyone in the tenant"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
