import { Link as RouterLink } from '../lib/router';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { useDocumentTitle } from '../lib/document-title';
import { FullPageCentre } from '../lib/full-page-status';

/** Any unknown path (spec 000 §2), in the current light or dark theme. */
export default function NotFoundPage() {
  useDocumentTitle(SHELL_MESSAGES.pageNotFound);
  return (
    <FullPageCentre component="main" sx={{ bgcolor: 'background.default' }}>
      <Typography variant="h2" component="p" color="text.secondary" sx={{ fontWeight: 300 }}>
        404
      </Typography>
      <Typography variant="h4" component="h1">
        {SHELL_MESSAGES.pageNotFound}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        Go to home
      </Button>
    </FullPageCentre>
  );
}
