/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.8.0';
export const API_DIGEST: string = '51a1618ffb539a665c3854c63f0426bdb9388e62239a6bb2b746e1eef092e1f2';
