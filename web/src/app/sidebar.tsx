import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useLocation } from '../lib/router';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { PRODUCT_SHORT_NAME, SIDEBAR_WIDTH_PX } from '@cfs/contracts/constants';
import { usePermissions } from '../auth/session-data';
import { useVersion } from '../lib/lookups';
import { activeMenuItem, menuItemHref, visibleMenu } from './menu';
import { useTenantId } from '../lib/use-tenant-id';

// The dialog, its dates and the EULA text load when the dialog is first opened.
const LicenseDialog = lazy(() => import('./license-dialog'));

export interface SidebarProps {
  /** Permanent beside the page at md and wider; a temporary drawer opened by the hamburger below (spec 000 §2). */
  permanent: boolean;
  open: boolean;
  onClose: () => void;
}

export function Sidebar({ permanent, open, onClose }: SidebarProps) {
  return (
    <Drawer
      variant={permanent ? 'permanent' : 'temporary'}
      open={permanent || open}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      // Below md the menu opens as a dialog over the page; named like the menu it holds.
      slotProps={{ paper: permanent ? {} : { 'aria-label': 'Main menu' } }}
      sx={{
        width: SIDEBAR_WIDTH_PX,
        flexShrink: 0,
        displayPrint: 'none',
        '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH_PX, boxSizing: 'border-box' },
      }}
    >
      <SidebarContent onNavigate={permanent ? undefined : onClose} />
    </Drawer>
  );
}

function SidebarContent({ onNavigate }: { onNavigate: (() => void) | undefined }) {
  const tenantId = useTenantId();
  const permissions = usePermissions();
  const { pathname } = useLocation();
  const active = activeMenuItem(pathname);
  // Everything the sidebar shows sits in a landmark (the menu, with the logo that leads home, and
  // its footer), so a screen reader's landmark list reaches all of it (axe: region).
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box
        component="nav"
        aria-label="Main menu"
        sx={{ display: 'flex', flexDirection: 'column', flexGrow: 1, minHeight: 0 }}
      >
        <Toolbar>
          {/* Named by what it shows, so "click CFS" by voice finds it (WCAG 2.5.3, Label in Name). */}
          <Link
            component={RouterLink}
            to={`/${tenantId}`}
            underline="none"
            color="inherit"
            onClick={onNavigate}
            aria-label={`${PRODUCT_SHORT_NAME} Home`}
          >
            <Typography variant="h6" component="span" sx={{ fontWeight: 700, letterSpacing: 1 }}>
              {PRODUCT_SHORT_NAME}
            </Typography>
          </Link>
        </Toolbar>
        <Divider />
        <Box sx={{ flexGrow: 1, overflowY: 'auto' }}>
          {visibleMenu(permissions).map((group) => (
            <List key={group.key} dense subheader={<ListSubheader component="li">{group.label}</ListSubheader>}>
              {group.items.map((item) => (
                <ListItem key={item.path} disablePadding>
                  <ListItemButton
                    component={RouterLink}
                    to={menuItemHref(item, tenantId)}
                    selected={item === active}
                    aria-current={item === active ? 'page' : undefined}
                    onClick={onNavigate}
                  >
                    <ListItemIcon sx={{ minWidth: 40 }}>
                      <item.icon />
                    </ListItemIcon>
                    <ListItemText primary={item.label} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          ))}
        </Box>
      </Box>
      <SidebarFooter />
    </Box>
  );
}

function SidebarFooter() {
  const version = useVersion();
  const [licenseOpen, setLicenseOpen] = useState(false);
  return (
    <>
      <Divider />
      <Box
        component="footer"
        sx={{ px: 2, py: 1.5, display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}
      >
        <Typography variant="caption" color="text.secondary">
          {version ? `Version ${version}` : ''}
        </Typography>
        <Link component="button" type="button" variant="caption" onClick={() => setLicenseOpen(true)}>
          License
        </Link>
      </Box>
      {licenseOpen ? (
        <Suspense fallback={null}>
          <LicenseDialog open onClose={() => setLicenseOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
