import { usePersonLabel } from '../lib/people';

/**
 * A person kept as a user name or mail, shown "displayName (mail)" (see `usePersonLabel`).
 *
 * @example
 *   { field: 'assignedTo', headerName: 'Assigned To', renderCell: ({ value }) => <PersonLabel value={value} /> }
 */
export function PersonLabel({ value }: { value: string | null | undefined }) {
  return <>{usePersonLabel(value)}</>;
}
