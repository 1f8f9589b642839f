import { FullPageStatus } from '../lib/full-page-status';

/**
 * Shown when a page fails to load or render. Most often a page's code chunk is gone after a
 * new version was deployed; reloading fetches the new one.
 */
export function RouteError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : '';
  return (
    <FullPageStatus
      message={`Something went wrong${detail ? `: ${detail}` : ''}. Please reload the page.`}
      onRetry={() => window.location.reload()}
    />
  );
}
