import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { FieldValues } from 'react-hook-form';
import { useLabelledField, type LabelledFieldProps } from './form-fields';
import { PEOPLE_SEARCH_DEBOUNCE_MS } from '@cfs/contracts/constants';
import type { Person } from '@cfs/contracts/shell';
import { formatPerson, usePeopleSearch, type PeopleDirectory } from '../lib/people';
import { useDebouncedValue } from '../lib/use-debounced-value';

export interface PeopleFieldProps<T extends FieldValues, TOut> extends Omit<LabelledFieldProps<T, TOut>, 'helperText'> {
  /** `people` for a person (approvers, implementer), `peopleandgroups` where a group may be assigned. */
  directory: PeopleDirectory;
}

/**
 * A person or group from the directory (spec 001 §3 Lookups, §7): searched 400 ms after the last
 * key, shown "displayName (mail)", holding the mail.
 */
export function PeopleField<T extends FieldValues, TOut>({ directory, ...props }: PeopleFieldProps<T, TOut>) {
  const { label, required } = props;
  const { field, error, message, disabled } = useLabelledField(props);
  const raw: unknown = field.value;
  const mail: string | null = typeof raw === 'string' && raw !== '' ? raw : null;
  const [input, setInput] = useState('');
  const term = useDebouncedValue(input, PEOPLE_SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<Person | null>(null);
  // A saved value is only a mail: the directory gives its name.
  const known = usePeopleSearch(directory, mail !== null && chosen?.mail !== mail ? mail : '');
  const named = known.data?.find((person) => person.mail.toLowerCase() === mail?.toLowerCase());
  const value: Person | null =
    mail === null ? null : chosen?.mail === mail ? chosen : (named ?? { displayName: '', mail });
  // While the box shows the chosen person, their label is no search.
  const shown = value ? formatPerson(value) : '';
  const search = usePeopleSearch(directory, input === shown || term === shown ? '' : term);

  return (
    <Autocomplete<Person, false, false, false>
      options={search.data ?? []}
      value={value}
      disabled={disabled}
      loading={search.isFetching}
      // The directory filters on the server.
      filterOptions={(options) => options}
      getOptionLabel={(person) => formatPerson(person)}
      getOptionKey={(person) => person.mail}
      isOptionEqualToValue={(option, current) => option.mail.toLowerCase() === current.mail.toLowerCase()}
      noOptionsText={input.trim() ? 'No people found' : 'Type to search'}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      onChange={(_event, person) => {
        setChosen(person);
        field.onChange(person ? person.mail : null);
      }}
      onBlur={field.onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          fullWidth
          margin="normal"
          label={label}
          required={required}
          name={field.name}
          inputRef={field.ref}
          error={error}
          helperText={message}
        />
      )}
    />
  );
}
