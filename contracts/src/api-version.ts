/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.0.0';
export const API_DIGEST: string = '06daacacceba341a048f3c8626b458ec1786ec897a5aa392892b182377e8a6aa';
