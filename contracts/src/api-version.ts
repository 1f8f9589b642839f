/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.2.0';
export const API_DIGEST: string = 'fd951d26f21198487d0d83330652aa1e2c0ce376efcf9c28d87dbac99ad0dbe3';
