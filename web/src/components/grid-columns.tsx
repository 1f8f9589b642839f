import { useState, type ReactElement } from 'react';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { formatDateTime } from '../lib/dates';
import type { DrawerParam } from '../lib/url-state';
import { CellLink } from './cell-link';
import { DateWithAge } from './date-with-age';
import { dateWithAgeWidth, stackedDateWithAgeWidth } from './grid-fit';
import { ACTIONS_FIELD } from './grid-model';

/**
 * Column plumbing that every area's grid repeats: an item's title that opens it, date-time values
 * arriving as ISO text, and a column of row action buttons. The columns themselves stay explicit
 * in the area.
 */

/**
 * The column of an item's title (its name, subject or number): a link to the item's drawer (spec
 * 001 §2 "Selecting a title sets the workUnitId query parameter"), `CellLink` to `drawer.href`:
 * a click opens the drawer in place, Ctrl, ⌘ or middle click a new tab.
 *
 * @example
 *   titleColumn<Location>({ field: 'name', headerName: 'Name', flex: 1, minWidth: 160 }, drawer, (row) => row.locationId)
 */
export function titleColumn<R extends GridValidRowModel>(
  column: Omit<GridColDef<R>, 'renderCell'>,
  drawer: Pick<DrawerParam, 'href' | 'open'>,
  idOf: (row: R) => string | number,
): GridColDef<R> {
  return {
    ...column,
    renderCell: ({ row, value }) => (
      <CellLink href={drawer.href(idOf(row))} onClick={() => drawer.open(idOf(row))}>
        {String(value ?? '')}
      </CellLink>
    ),
  };
}

/**
 * A column the browser works out (a status from the dates, the last packet's value): the server
 * has no such field, so the column is not sorted, filtered or exported.
 *
 * @example
 *   browserColumn<DeviceOperation>({ field: 'status', headerName: 'Status', width: 110, renderCell: … })
 */
export function browserColumn<R extends GridValidRowModel>(
  column: Omit<GridColDef<R>, 'sortable' | 'filterable' | 'disableExport'>,
): GridColDef<R> {
  return { ...column, sortable: false, filterable: false, disableExport: true };
}

/**
 * The Tenant column of items that may belong to none (protocols, rules, action definitions): the
 * tenant's name, or "Every tenant". The grid sorts and filters it by `tenant/name` (`fields`).
 *
 * @example
 *   sharedTenantColumn<Protocol>({ flex: 0.8, minWidth: 120 })
 */
export function sharedTenantColumn<R extends GridValidRowModel & { tenant?: { name: string } | null }>(
  size: Pick<GridColDef<R>, 'flex' | 'minWidth'>,
): GridColDef<R> {
  return {
    field: 'tenant',
    headerName: 'Tenant',
    ...size,
    valueGetter: (_value, row) => row.tenant?.name ?? 'Every tenant',
  };
}

/**
 * A date-time column over an ISO text field: the grid gets a `Date` (its dateTime filter and
 * sort work on it) and shows it in the spec's format, local time (spec 000 §9), with how long
 * ago it was beside it ("2 h ago").
 *
 * @example
 *   dateTimeColumn<Tenant>({ field: 'modified', headerName: 'Modified', width: 190 })
 *   dateTimeColumn<Token>({ field: 'expiresOn', headerName: 'Expires On', emptyText: 'Forever' })
 *   dateTimeColumn<ReportRow>({ field: 'latestVersionReleased', headerName: 'Latest Released', stacked: true })
 *
 * `stacked` shows the age under the date: the column needs the date's width only (a grid of many
 * columns, e.g. the version report, fits a laptop's screen).
 */
export function dateTimeColumn<R extends GridValidRowModel>(
  column: Omit<GridColDef<R, Date | null, string>, 'type' | 'valueGetter' | 'valueFormatter' | 'renderCell'> & {
    emptyText?: string;
    stacked?: boolean;
  },
): GridColDef<R> {
  const { emptyText = '', stacked = false, ...rest } = column;
  const least = widestDateWithAge(stacked);
  return {
    width: stacked ? least : 260,
    // The date and its age, whole, however narrow the grid (a fitted grid shrinks columns to their minWidth).
    minWidth: least,
    ...rest,
    type: 'dateTime',
    valueGetter: (value: unknown) => toDate(value),
    valueFormatter: (value: unknown) => (value instanceof Date ? formatDateTime(value) : emptyText),
    renderCell: ({ value, formattedValue }) => (
      <DateWithAge value={value instanceof Date ? value : null} text={String(formattedValue ?? '')} stacked={stacked} />
    ),
  };
}

const widest: { inline?: number; stacked?: number } = {};
function widestDateWithAge(stacked: boolean): number {
  // The 28th at 23:59 of each month: the widest day and time, and whichever month's name is widest
  // in the font ("Nov" outruns "Sep"); the zone is the user's.
  const widestOf = (width: (formatted: string) => number) =>
    Math.max(...Array.from({ length: 12 }, (_, month) => width(formatDateTime(new Date(2026, month, 28, 23, 59)))));
  if (stacked) return (widest.stacked ??= widestOf((formatted) => stackedDateWithAgeWidth(formatted)));
  return (widest.inline ??= widestOf((formatted) => dateWithAgeWidth(formatted)));
}

function toDate(value: unknown): Date | null {
  if (value instanceof Date) return value;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface RowAction {
  /** The button's accessible name and tooltip, e.g. "Edit", "Subscriptions", "Disable". */
  label: string;
  icon: ReactElement;
  onClick: () => void;
  disabled?: boolean;
  color?: 'default' | 'primary' | 'error';
  /** The accessible name where the label alone does not say which row it acts on (a table's "Delete version 1.0.0"). */
  name?: string;
  /** Shown in the row's "More Actions" menu rather than as a button of its own (a row of many actions). */
  inMenu?: boolean;
}

/**
 * The icon buttons of one row, grid or table, each with its tooltip, and those marked `inMenu`
 * behind one "More Actions" button; clicks do not reach the row's own click.
 *
 * @example
 *   <TableCell align="right"><RowActionButtons actions={[{ label: 'Delete', name: `Delete ${row.name}`, … }]} /></TableCell>
 */
export function RowActionButtons({ actions }: { actions: readonly RowAction[] }) {
  const inline = actions.filter((action) => !action.inMenu);
  const more = actions.filter((action) => action.inMenu);
  return (
    <>
      {inline.map((action) => (
        <Tooltip key={action.label} title={action.label}>
          {/* A disabled button fires no events; the span keeps the tooltip working. */}
          <span>
            <IconButton
              size="small"
              aria-label={action.name ?? action.label}
              color={action.color ?? 'default'}
              disabled={action.disabled}
              onClick={(event) => {
                event.stopPropagation();
                action.onClick();
              }}
            >
              {action.icon}
            </IconButton>
          </span>
        </Tooltip>
      ))}
      {more.length > 0 && <MoreActions actions={more} />}
    </>
  );
}

/** The row's less frequent actions behind one "More Actions" button, as a menu of icons and labels. */
function MoreActions({ actions }: { actions: readonly RowAction[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title="More Actions">
        <IconButton
          size="small"
          aria-label="More Actions"
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : 'false'}
          onClick={(event) => {
            event.stopPropagation();
            setAnchor(event.currentTarget);
          }}
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {anchor && (
        <Menu
          open
          anchorEl={anchor}
          onClose={() => setAnchor(null)}
          // Clicks in the menu (portalled, but a child in React's tree) do not reach the row's own click.
          onClick={(event) => event.stopPropagation()}
        >
          {actions.map((action) => (
            <MenuItem
              key={action.label}
              aria-label={action.name ?? action.label}
              disabled={action.disabled}
              sx={action.color === 'error' ? { color: 'error.main' } : undefined}
              onClick={() => {
                setAnchor(null);
                action.onClick();
              }}
            >
              <ListItemIcon sx={action.color === 'error' ? { color: 'error.main' } : undefined}>
                {action.icon}
              </ListItemIcon>
              <ListItemText>{action.label}</ListItemText>
            </MenuItem>
          ))}
        </Menu>
      )}
    </>
  );
}

/**
 * A column of icon buttons per row, each with a tooltip; clicks do not reach the row's own click.
 * Not sortable, filterable or exported.
 *
 * @example
 *   actionsColumn<Tenant>((row) => [
 *     { label: 'Edit', icon: <EditIcon />, onClick: () => drawer.open(row.tenantId) },
 *     { label: row.enabled ? 'Disable' : 'Enable', icon: <PowerIcon />, onClick: () => setToggling(row) },
 *   ], { width: 140 })
 */
export function actionsColumn<R extends GridValidRowModel>(
  getActions: (row: R) => readonly RowAction[],
  options: { width?: number; headerName?: string } = {},
): GridColDef<R> {
  return {
    field: ACTIONS_FIELD,
    headerName: options.headerName ?? 'Actions',
    width: options.width ?? 120,
    sortable: false,
    filterable: false,
    hideable: false,
    disableColumnMenu: true,
    disableExport: true,
    renderCell: ({ row }) => (
      <Box sx={{ display: 'flex', alignItems: 'center', height: '100%' }}>
        <RowActionButtons actions={getActions(row)} />
      </Box>
    ),
  };
}
