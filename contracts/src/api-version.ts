/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.2.0';
export const API_DIGEST: string = '1ffc89bc195e02c5a035a6d950edd4e3973512027b1a8adc9a2a5a9a84376f28';
