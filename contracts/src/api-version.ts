/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.11.0';
export const API_DIGEST: string = '3021a5cc28e6ed09a1957217b9b3eeb41ff7f350a0e98400aa3788ac24a2c479';
