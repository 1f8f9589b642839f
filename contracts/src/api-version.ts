/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.8.0';
export const API_DIGEST: string = 'ac2d3a8d2a2c4c38f93fed86697e1bff143ec44023c0b3568ffd0cde4678cb6d';
