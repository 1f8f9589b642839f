/** Business constants of spec 000 §9 and 001 §9, shared by server and web. */
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const VERSION_REPORT_PAGE_SIZE = 25;
export const RESOLUTION_CENTER_PAGE_SIZE = 50;
/** Largest $top any list accepts unless a resource declares its own. */
export const MAX_PAGE_SIZE = 1000;
export const EXPORT_ALL_ROWS = 1000;
/**
 * The most rows a list counts: past it `@odata.count` is this number and the answer says that more
 * match (`@cfs.countIsLowerBound`), so a count costs what counting this many rows costs.
 */
export const LIST_COUNT_CAP = 10_000;
/**
 * The largest `$skip` a list accepts: skipped rows are still read. Deeper pages follow the
 * `$skiptoken` of the previous page's `@odata.nextLink`. Equal to the count cap, so every page of
 * an exactly counted list is reachable by `$skip`.
 * @alias
 */
export const MAX_SKIP = LIST_COUNT_CAP;
/** The most columns one CSV export may name, and the longest column title. */
export const MAX_EXPORT_COLUMNS = 50;
export const MAX_EXPORT_TITLE = 100;

export const TOAST_AUTO_HIDE_MS = 6000;
export const FORBIDDEN_TOAST_MS = 8000;
export const COPY_TOOLTIP_MS = 1000;

export const SIDEBAR_WIDTH_PX = 260;
export const PROFILE_POPUP_WIDTH_PX = 290;
export const DRAWER_DEFAULT_WIDTH = '50vw';
export const DRAWER_WIDE_WIDTH = '75vw';

export const BREAKPOINTS = { xs: 0, sm: 768, md: 1024, lg: 1266, xl: 1536 } as const;

export const SEARCH_DEBOUNCE_MS = 250;
export const RELATED_SEARCH_DEBOUNCE_MS = 500;
export const PEOPLE_SEARCH_DEBOUNCE_MS = 400;
export const WORK_UNITS_POLL_MS = 60_000;
/** Spec 001 §2, §9: after a run or a reject the lists are read again 5 s later (the run is queued). */
export const POST_ACTION_REFRESH_MS = 5000;

export const DATE_FORMAT = 'D/MMM/YYYY HH:mm z';
/** Dates are typed as they are shown (DATE_FORMAT), in local time and so without the zone. */
export const DATE_TIME_ENTRY_FORMAT = 'D/MMM/YYYY HH:mm';
export const SHORT_DATE_FORMAT = 'h:mma, ddd, M/D/YYYY';
export const TIME_FORMAT = 'HH:mm:ss';

export const DEFAULT_ENVIRONMENT_NAME = 'CFS Portal';
export const PRODUCT_SHORT_NAME = 'CFS';
