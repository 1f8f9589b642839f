/**
 * A contracts type as it arrives over HTTP. The contracts describe the server's values, where
 * dates are `Date`s; JSON carries them as ISO texts. Screens type their fetches with this so a
 * date is never mistaken for a `Date` object.
 *
 * @example
 *   import type { Tenant } from '@cfs/contracts/tenants';
 *   export type TenantRow = JsonOf<Tenant>; // created: string, modified: string, …
 */
export type JsonOf<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? JsonOf<U>[]
    : T extends object
      ? { [K in keyof T]: JsonOf<T[K]> }
      : T;
