import { createContext, useContext, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FilterListIcon from '@mui/icons-material/FilterList';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { ColumnsPanelTrigger, FilterPanelTrigger } from '@mui/x-data-grid';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { exportingLabel } from './export-progress';
import type { ListStateApi } from '../lib/url-state';
import { activeFilterCount } from './grid-model';
import type { RowSelection } from './row-selection';
import { SearchBox } from './search-box';
import { TenantScopeSelect } from './tenant-scope-select';

export interface ToolbarMenuItem {
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}

export interface ToolbarMenu {
  label: string;
  icon?: ReactNode;
  items: readonly ToolbarMenuItem[];
}

export type ExportScope = 'page' | 'all';

/** What the toolbar shows; `ResourceGrid` provides it, the grid's toolbar slot reads it. */
export interface ResourceGridToolbarConfig {
  list: ListStateApi;
  onCreate?: () => void;
  menu?: ToolbarMenu;
  extra?: ReactNode;
  /** Present when the grid exports; runs one export, telling the bytes received so far, and settles when it is done. */
  runExport?: (scope: ExportScope, onProgress: (bytes: number) => void) => Promise<void>;
  columnsToggle: boolean;
  filterPanel: boolean;
  search?: { offerExactMatch: boolean; live: boolean };
  /** Checkbox selection: the bulk bar's actions, and Export Selection when the grid exports. */
  bulk?: { selection: RowSelection; actions: readonly ToolbarMenuItem[]; runExport?: () => Promise<void> };
  /** The tenant in the path, when the rows are tenant-owned: the "All tenants" choice. */
  tenantScope?: string;
}

// The toolbar is a grid slot; a context carries its configuration without widening the grid's slot props types.
export const ResourceGridToolbarContext = createContext<ResourceGridToolbarConfig | null>(null);

/**
 * Create, a menu button, the area's extra buttons, Export Page and Export All (each shows
 * "Exporting..." and is disabled while running), column and filter panels, and the search box
 * (spec 000 §2 "Data grid toolbar").
 */
export function ResourceGridToolbar() {
  const config = useContext(ResourceGridToolbarContext);
  const [exporting, setExporting] = useState<ExportScope | null>(null);
  const [received, setReceived] = useState(0);
  if (!config) return null;
  const { list, runExport } = config;
  const filterCount = activeFilterCount(list.state.filters);

  const exportButton = (scope: ExportScope, label: string) =>
    runExport && (
      <Button
        size="small"
        startIcon={<FileDownloadIcon />}
        disabled={exporting !== null}
        onClick={() => {
          setExporting(scope);
          setReceived(0);
          void runExport(scope, setReceived).finally(() => setExporting(null));
        }}
      >
        {exporting === scope ? exportingLabel(received) : label}
      </Button>
    );

  return (
    <Box>
      {config.bulk && config.bulk.selection.ids.length > 0 && <BulkBar {...config.bulk} />}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, p: 1 }}>
        {config.onCreate && (
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={config.onCreate}>
            Create
          </Button>
        )}
        {config.menu && <ToolbarMenuButton menu={config.menu} />}
        {config.tenantScope !== undefined && (
          <TenantScopeSelect
            tenantId={config.tenantScope}
            allTenants={list.state.allTenants}
            onChange={(allTenants) => list.change({ type: 'allTenants', allTenants })}
          />
        )}
        {config.extra}
        {exportButton('page', 'Export Page')}
        {exportButton('all', 'Export All')}
        {config.columnsToggle && (
          <ColumnsPanelTrigger size="small" startIcon={<ViewColumnIcon />}>
            Columns
          </ColumnsPanelTrigger>
        )}
        {config.filterPanel && (
          // The count keeps a screen's default filter (categories: isEnabled true) in sight.
          <FilterPanelTrigger size="small" startIcon={<FilterListIcon />}>
            {filterCount > 0 ? `Filters (${filterCount})` : 'Filters'}
          </FilterPanelTrigger>
        )}
        <Box sx={{ flex: 1 }} />
        {config.search && (
          <SearchBox
            search={list.state.search}
            exactMatch={list.state.exactMatch}
            onApply={list.setSearch}
            offerExactMatch={config.search.offerExactMatch}
            live={config.search.live}
          />
        )}
      </Box>
    </Box>
  );
}

/** What the checked rows can have done to them, shown while any row is checked. */
function BulkBar({ selection, actions, runExport }: NonNullable<ResourceGridToolbarConfig['bulk']>) {
  const [exporting, setExporting] = useState(false);
  const count = selection.ids.length;
  return (
    <Box
      role="toolbar"
      aria-label="Selected rows"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        px: 1,
        py: 0.5,
        bgcolor: 'action.selected',
      }}
    >
      <Typography variant="body2" sx={{ fontWeight: 500, mr: 1 }}>
        {count} selected
      </Typography>
      {actions.map((action) => (
        <Button
          key={action.label}
          size="small"
          variant="outlined"
          startIcon={action.icon}
          disabled={action.disabled}
          onClick={action.onClick}
        >
          {action.label}
        </Button>
      ))}
      {runExport && (
        <Button
          size="small"
          startIcon={<FileDownloadIcon />}
          disabled={exporting}
          onClick={() => {
            setExporting(true);
            void runExport().finally(() => setExporting(false));
          }}
        >
          {exporting ? SHELL_MESSAGES.exporting : 'Export Selection'}
        </Button>
      )}
      <Box sx={{ flex: 1 }} />
      <Button size="small" onClick={selection.clear}>
        Clear Selection
      </Button>
    </Box>
  );
}

function ToolbarMenuButton({ menu }: { menu: ToolbarMenu }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={menu.icon}
        endIcon={<ArrowDropDownIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {menu.label}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {menu.items.map((item) => (
          <MenuItem
            key={item.label}
            disabled={item.disabled}
            onClick={() => {
              setAnchor(null);
              item.onClick();
            }}
          >
            {item.icon && <ListItemIcon>{item.icon}</ListItemIcon>}
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
