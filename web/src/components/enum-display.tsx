import { enumLabel, type EnumLabels, type EnumType } from './enum-label';

export interface EnumDisplayProps {
  /** Required; a missing one (from untyped data) is logged as "Enum type required for text type enum.". */
  enumType: EnumType;
  value: string | number | null | undefined;
  labels?: EnumLabels;
}

/**
 * An enum value as text ("unknown" for a value the enum does not have).
 *
 * @example
 *   renderCell: ({ row }) => <EnumDisplay enumType={Severity} value={row.severityId} />
 */
export function EnumDisplay({ enumType, value, labels }: EnumDisplayProps) {
  return <>{safeEnumLabel(enumType, value, labels)}</>;
}

function safeEnumLabel(enumType: EnumType, value: EnumDisplayProps['value'], labels: EnumLabels | undefined): string {
  try {
    return enumLabel(enumType, value, labels);
  } catch (error) {
    // A fault of the screen, not of the data: log it and leave the one cell empty rather than the page.
    console.error(error);
    return '';
  }
}
