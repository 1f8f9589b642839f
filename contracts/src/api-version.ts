/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.10.0';
export const API_DIGEST: string = '0387c875a83d85b81c8bfddcad3f8ef8e649b5cf7d1d493b3a2c5e133ef665db';
