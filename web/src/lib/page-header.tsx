import type { ReactNode } from 'react';
import HelpOutlineOutlinedIcon from '@mui/icons-material/HelpOutlineOutlined';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from './document-title';

export interface PageHeaderProps {
  title: string;
  /** Shown in a tooltip on a help icon beside the title. */
  help?: ReactNode;
  /** Buttons or other controls at the right of the header. */
  actions?: ReactNode;
  /** The document title when it differs from the header, e.g. "WU #42" while a work unit is open (spec 001 §2). */
  documentTitle?: string;
  /** A line under the title, e.g. whose rows the page lists ("Tokens of Fabrikam"). */
  subtitle?: ReactNode;
}

/**
 * The title of a page, with an optional help tooltip; also sets the document title
 * to "{title} - {company}" (spec 000 §2).
 *
 * @example
 *   <PageHeader title="Tenants" help="Tenants and their subscriptions." />
 */
export function PageHeader({ title, help, actions, documentTitle, subtitle }: PageHeaderProps) {
  useDocumentTitle(documentTitle ?? title);
  const heading = (
    <Typography variant="h5" component="h1">
      {title}
    </Typography>
  );
  return (
    // On a phone the actions wrap under the title rather than running off the screen's edge.
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2, minHeight: 40 }}>
      {subtitle ? (
        <Box>
          {heading}
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        </Box>
      ) : (
        heading
      )}
      {help ? (
        <Tooltip title={help}>
          <HelpOutlineOutlinedIcon fontSize="small" color="action" titleAccess={`About ${title}`} tabIndex={0} />
        </Tooltip>
      ) : null}
      {actions ? (
        <Box
          sx={{ ml: 'auto', display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1, maxWidth: '100%' }}
        >
          {actions}
        </Box>
      ) : null}
    </Box>
  );
}
