import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import { SIDEBAR_WIDTH_PX } from '@cfs/contracts/constants';
import { usePermissions } from '../auth/session-data';
import { useEnvironment } from '../lib/environment';
import { showsTenantPicker } from './menu';
import { ProfileMenu } from './profile-menu';
import { TenantPicker } from './tenant-picker';
import { ThemeModeSwitch } from './theme-mode-switch';

export interface AppHeaderProps {
  /** Beside a permanent sidebar the bar starts after it; otherwise it offers the hamburger. */
  sidebarPermanent: boolean;
  onOpenSidebar: () => void;
}

/** The environment's colour, if the browser accepts it as a colour; the server's text is not trusted as CSS. */
function safeColour(value: string | undefined): string | undefined {
  return value && typeof CSS !== 'undefined' && CSS.supports('color', value) ? value : undefined;
}

export function AppHeader({ sidebarPermanent, onOpenSidebar }: AppHeaderProps) {
  const permissions = usePermissions();
  const environment = useEnvironment().data;
  const accent = safeColour(environment?.environmentColor);
  return (
    <AppBar
      position="fixed"
      color="default"
      elevation={0}
      sx={{
        width: sidebarPermanent ? `calc(100% - ${SIDEBAR_WIDTH_PX}px)` : '100%',
        ml: sidebarPermanent ? `${SIDEBAR_WIDTH_PX}px` : 0,
        bgcolor: 'background.paper',
        // A printed page (a report) is the page alone.
        displayPrint: 'none',
        // Lines drawn inside the bar, not borders: the bar must stay as tall as the <Toolbar />
        // spacer under it, or it hides the page's loading bar and top edge.
        // The environment colour marks which environment this is at a glance.
        boxShadow: (theme) =>
          [accent ? `inset 0 4px 0 ${accent}` : '', `inset 0 -1px 0 ${theme.palette.divider}`]
            .filter(Boolean)
            .join(', '),
      }}
    >
      <Toolbar sx={{ gap: 1 }}>
        {sidebarPermanent ? null : (
          <IconButton edge="start" color="inherit" aria-label="Open menu" onClick={onOpenSidebar}>
            <MenuIcon />
          </IconButton>
        )}
        {environment?.environmentName ? (
          <Chip
            label={environment.environmentName}
            size="small"
            variant="outlined"
            sx={accent ? { borderColor: accent, color: 'text.primary', fontWeight: 600 } : { fontWeight: 600 }}
          />
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        {showsTenantPicker(permissions) ? <TenantPicker /> : null}
        <ThemeModeSwitch />
        <ProfileMenu />
      </Toolbar>
    </AppBar>
  );
}
