/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.4.0';
export const API_DIGEST: string = '713fc19343d8590680e473f8b0157ba98b5a538c28fc70209593d068e5dd3e63';
