/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.3.0';
export const API_DIGEST: string = 'c3e1676b0dd5e69b37f24e1c4c376d8f7375f7c530393521f6568877626d20d4';
