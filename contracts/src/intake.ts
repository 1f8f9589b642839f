/** The intake wizard's texts (spec 001 §8 Intake; the spelling "occured" is the spec's). */
export const INTAKE_MESSAGES = {
  problem: 'A problem occured. Please try again.',
  noSchema: 'This tenant does not have a schema stored.',
  /** Not in the spec: the schema panel's success after an upload. */
  schemaSaved: 'Intake schema saved.',
  /** Not in the spec: the tenant selection panel when the user may create in no tenant. */
  noTenants: 'There is no tenant you can create work units in.',
} as const;
