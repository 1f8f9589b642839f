import {
  EXECUTABLE_TYPES,
  FREQUENCY_TYPES,
  OPERATING_SYSTEMS,
  OPERATION_RESULT_TYPES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  PACKAGE_VERSION_STATUSES,
  PARAMETER_SOURCES,
} from '@cfs/contracts/fleet';
import { enumLabel, enumOptions } from '../../components/enum-label';
import type { FieldOption } from '../../components/form-fields';

/** The choices the package forms offer, from the fleet's enumerations. */
export const PACKAGE_TYPE_OPTIONS: FieldOption[] = enumOptions(PACKAGE_TYPES);
export const EXECUTABLE_TYPE_OPTIONS: FieldOption[] = enumOptions(EXECUTABLE_TYPES);
/** Unknown is what an agent reports, not something a package supports. */
export const OPERATING_SYSTEM_OPTIONS: FieldOption[] = enumOptions(OPERATING_SYSTEMS).filter(
  (option) => option.value !== OPERATING_SYSTEMS.Unknown,
);
export const OPERATION_TYPE_OPTIONS: FieldOption[] = enumOptions(OPERATION_TYPES);
export const RESULT_TYPE_OPTIONS: FieldOption[] = enumOptions(OPERATION_RESULT_TYPES);
export const FREQUENCY_OPTIONS: FieldOption[] = enumOptions(FREQUENCY_TYPES);
export const SOURCE_OPTIONS: FieldOption[] = PARAMETER_SOURCES.map((source) => ({ value: source, label: source }));

export const operatingSystemsText = (ids: readonly number[]) =>
  ids.map((id) => enumLabel(OPERATING_SYSTEMS, id)).join(', ');
export const frequenciesText = (ids: readonly number[]) => ids.map((id) => enumLabel(FREQUENCY_TYPES, id)).join(', ');
export const versionStatusLabel = (id: number) => enumLabel(PACKAGE_VERSION_STATUSES, id);
