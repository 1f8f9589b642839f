import { Suspense, useState } from 'react';
import { Outlet, useNavigationPending } from '../lib/router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { SIDEBAR_WIDTH_PX } from '@cfs/contracts/constants';
import { MAIN_CONTENT_ID, SkipLink } from '../components/skip-link';
import { AppHeader } from './app-header';
import { Sidebar } from './sidebar';

/** The portal layout: header, sidebar and the page. */
export default function ShellLayout() {
  const theme = useTheme();
  const permanent = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const navigating = useNavigationPending();
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <AppHeader sidebarPermanent={permanent} onOpenSidebar={() => setMobileOpen(true)} />
      <Sidebar permanent={permanent} open={mobileOpen} onClose={() => setMobileOpen(false)} />
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{
          flexGrow: 1,
          minWidth: 0,
          width: permanent ? `calc(100% - ${SIDEBAR_WIDTH_PX}px)` : '100%',
          '&:focus': { outline: 'none' },
          '@media print': { width: '100%' },
        }}
      >
        <Toolbar sx={{ displayPrint: 'none' }} />
        {/* A page's code is loaded on first visit; the bar shows while it arrives. */}
        <Box sx={{ height: 4 }}>{navigating ? <LinearProgress aria-label="Loading page" /> : null}</Box>
        <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3 }}>
          <Suspense fallback={<LinearProgress />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
