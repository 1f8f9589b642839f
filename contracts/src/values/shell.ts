/** The most keys one names request carries (a page of a grid has at most 100 rows). */
export const PERSON_NAMES_MAX = 100;
