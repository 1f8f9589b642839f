import { useMatches } from 'react-router';
import Typography from '@mui/material/Typography';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { useDocumentTitle } from '../../lib/document-title';
import { PageHeader } from '../../lib/page-header';

/** What an area route declares in its `handle`: the page header, and whether its layout shows it already. */
export interface AreaRouteHandle {
  header: string;
  headerInLayout?: boolean;
}

function isAreaRouteHandle(handle: unknown): handle is AreaRouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { header?: unknown }).header === 'string';
}

function useAreaHandle(): AreaRouteHandle {
  const handle = useMatches()
    .map((match) => match.handle)
    .findLast(isAreaRouteHandle);
  return handle ?? { header: 'Page' };
}

/** Stands in for an area that is not built yet: its header and one sentence. */
export default function AreaPlaceholderPage() {
  const { header, headerInLayout } = useAreaHandle();
  return (
    <>
      {headerInLayout ? <TitleOnly header={header} /> : <PageHeader title={header} />}
      <Typography color="text.secondary">{SHELL_MESSAGES.areaNotAvailable}</Typography>
    </>
  );
}

function TitleOnly({ header }: { header: string }) {
  useDocumentTitle(header);
  return null;
}
