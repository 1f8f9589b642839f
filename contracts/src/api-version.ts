/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.10.0';
export const API_DIGEST: string = 'a5a2426d70bfaba62ab7cf7a47e56b6469e18c3c83a844b42ca57d73d6bd6347';
