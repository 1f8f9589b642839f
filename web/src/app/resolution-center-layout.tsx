import { Suspense } from 'react';
import { Outlet, useSearchParams } from '../lib/router';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { MAIN_CONTENT_ID, SkipLink } from '../components/skip-link';
import { ProfileMenu } from './profile-menu';

const THANKS = 'Thank you for your valuable feedback!';

/** The Resolution Center's standalone layout: its header with only the profile menu, no sidebar (spec 000 §2). */
export default function ResolutionCenterLayout() {
  const [searchParams] = useSearchParams();
  const thanks =
    searchParams.has('showThanksForFeedbackMessage') && searchParams.get('showThanksForFeedbackMessage') !== 'false';
  return (
    <Box sx={{ minHeight: '100vh' }}>
      <SkipLink />
      <AppBar
        position="fixed"
        color="default"
        elevation={0}
        sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar>
          {/* The layout heads the page (the page has no header of its own): the page's one h1. */}
          <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
            Resolution Center
          </Typography>
          <ProfileMenu />
        </Toolbar>
      </AppBar>
      <Toolbar />
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ px: { xs: 2, sm: 3 }, py: 3, '&:focus': { outline: 'none' } }}
      >
        {thanks ? (
          <Alert severity="success" sx={{ mb: 2 }}>
            {THANKS}
          </Alert>
        ) : null}
        <Suspense fallback={<LinearProgress />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
