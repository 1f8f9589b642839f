/** Message texts of the shell (spec 000 §8), word for word. */
export const SHELL_MESSAGES = {
  forbiddenToast: 'You do not have access to one or more requested resources',
  accessDenied: 'You do not have access. Please contact your system administrator for access.',
  enumTypeRequired: 'Enum type required for text type enum.',
  unknownEnum: 'unknown',
  expirationLoading: 'Expiration Date Loading...',
  redirecting: 'Redirecting to login page...',
  pageNotFound: 'Page Not Found',
  unsavedChanges: 'There are unsaved changes. Are you sure you want to close?',
  invalidGuid: 'Please enter a valid GUID.',
  /** A grid whose list call failed, above the server's message (no rows and no pager are shown). */
  listFailed: 'The list could not be loaded.',
  tryAgain: 'Try Again',
  /** Not in the spec: a grid left empty by its search or filters says so, with the way back. */
  nothingMatches: 'Nothing matches the search and filters.',
  clearSearchAndFilters: 'Clear Search and Filters',
  /** Not in the spec: Login when the identity provider cannot be read, instead of the browser's "Failed to fetch". */
  signInUnavailable:
    'Sign-in is not available right now: the sign-in service could not be reached. Please try again later, or tell your administrator.',
  copiedToClipboard: 'Copied to clipboard',
  /** The info toast after any copy (spec 001 §8 "Copy"), beside the button's tooltip. */
  copiedInfo: 'copied to clipboard.',
  entityIdCopied: (entityId: string) => `Entity Id ${entityId} copied to clipboard.`,
  exporting: 'Exporting...',
  /** Not in the spec (a failed export is only logged there): operators asked to be told. */
  exportFailed: 'The export failed. Please try again.',
  makeSelection: 'Please make a selection',
  tenantRequired: 'Please choose a tenant.',
  subscriptionRequired: 'Please choose a subscription.',
} as const;
