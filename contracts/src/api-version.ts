/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.6.0';
export const API_DIGEST: string = 'e93bae5223bd9859faaee90565c86673c6a868dc1c83f0c2df73ed35c4bc3b46';
