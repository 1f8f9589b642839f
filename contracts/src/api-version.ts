/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.5.0';
export const API_DIGEST: string = '999048ebb09a539dbbb76ebeb3b8ef866f97e6bfacd148af8e5edc4f26553222';
