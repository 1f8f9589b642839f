/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.3.0';
export const API_DIGEST: string = 'b6ab6c10e601b47448ea1b14fba96f42f1a3ceac5bd8106abb4b22fcd7225a11';
