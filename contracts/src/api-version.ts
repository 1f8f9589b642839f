/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.1.0';
export const API_DIGEST: string = 'ac1afb172a5a9ce86dbc4a9df3799f3292ce94085dc3f657bdca2a8fba49a442';
