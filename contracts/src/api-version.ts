/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.7.0';
export const API_DIGEST: string = 'eb1ec63de11b77c8ebfc8cd2735f74488e2e0a9a68f8fc5614d41d4337ec02e8';
