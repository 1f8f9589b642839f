/**
 * The API's version, as its document (/openapi.json) gives it, and the digest of the document it
 * names. Written by `npm run api:document` (server/src/cli/api-document.ts): when the document
 * changes, the minor version rises, and the major one when an operation is gone.
 */
export const API_VERSION: string = '2.5.0';
export const API_DIGEST: string = '8fc645bf74b009c9c26ad0989277e7366d07321de3a7ca2d6ff6cc87c6f5d6ea';
