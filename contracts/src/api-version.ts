/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.4.0';
export const API_DIGEST: string = '4c7b4a4e26c797217e0dbe64473a34f6470c5097837fcf48fbb836ae812967fe';
