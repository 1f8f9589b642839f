/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.0.0';
export const API_DIGEST: string = 'cc3ea401363dc813513a201dafbe0dff0992204733763398a826556781f07350';
