/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.6.0';
export const API_DIGEST: string = 'dc3074ed223fd5708fedf4c44d9ff362ea1becc4243f215c327d0ebf483d2de3';
