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
  copiedToClipboard: 'Copied to clipboard',
  exporting: 'Exporting...',
  areaNotAvailable: 'This area is not available yet.',
  makeSelection: 'Please make a selection',
  tenantRequired: 'Please choose a tenant.',
  subscriptionRequired: 'Please choose a subscription.',
} as const;
