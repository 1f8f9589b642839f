import type { MouseEvent } from 'react';
import Link from '@mui/material/Link';

/** The id of the layouts' `<main>`, where the skip link takes the focus. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content": the first thing the keyboard reaches on every screen, hidden until it
 * has the focus, so a keyboard or screen reader user passes the header and the menu in one key
 * (WCAG 2.4.1, Bypass Blocks). The target `<main id={MAIN_CONTENT_ID} tabIndex={-1}>` takes the
 * focus itself, so the next Tab goes on from the content; the address is left as it is (the
 * open drawer and the list's state live in it).
 *
 * @example
 *   <SkipLink />
 *   <AppBar>…</AppBar>
 *   <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>…</Box>
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (theme) => theme.zIndex.tooltip,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        boxShadow: 3,
        // Off screen until it has the focus.
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      Skip to main content
    </Link>
  );
}
