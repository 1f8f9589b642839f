/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '1.9.0';
export const API_DIGEST: string = '686cac9ec727f8e7beae7842a7cd19ed65c874e536d7b1cfe6a984ddfa2f24ae';
