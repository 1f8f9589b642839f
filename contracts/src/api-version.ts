/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.11.0';
export const API_DIGEST: string = 'dd5124d486771aa63637d7575ef4d41847d23a9505b883f56744c0e492fe56d2';
