/** The grids that keep saved views; each registers its own routes (`/v1/savedviews/{grid}`). */
export const SAVED_VIEW_GRIDS = ['workunits'] as const;
export type SavedViewGrid = (typeof SAVED_VIEW_GRIDS)[number];

export const SAVED_VIEW_NAME_MAX = 100;
export const SAVED_VIEW_MESSAGES = {
  nameRequired: 'Please enter a name for the view.',
  nameTooLong: `The name can have at most ${SAVED_VIEW_NAME_MAX} characters.`,
  nameTaken: 'You already have a view with this name.',
  saved: (name: string) => `View "${name}" saved.`,
  saveFailed: 'A problem occurred saving the view. Please try again.',
  deleteFailed: 'A problem occurred deleting the view. Please try again.',
} as const;
