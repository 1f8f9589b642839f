/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.9.0';
export const API_DIGEST: string = 'eebae0da877bc15b803a6ff9eadf58858cb7b776149d5d6afc910570779db19a';
