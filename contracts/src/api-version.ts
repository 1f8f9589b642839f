/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.1.0';
export const API_DIGEST: string = 'd53ad95284a3d7e5aad7a5d269ff83c1a9a6c0b4572b57268a8ee0f395037517';
