import { useEffect, useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_DEBOUNCE_MS } from '@cfs/contracts/constants';
import { useDebouncedValue } from '../lib/use-debounced-value';

export interface SearchBoxProps {
  /** The search in effect (from the list state). */
  search: string;
  exactMatch: boolean;
  onApply: (search: string, exactMatch: boolean) => void;
  offerExactMatch?: boolean;
  /** Apply while typing, 250 ms after the last key (spec 000 §9), besides Enter and the button. */
  live?: boolean;
}

/** The grid toolbar's search (spec 000 §2): applied on Enter or the search button. */
export function SearchBox({ search, exactMatch, onApply, offerExactMatch = false, live = false }: SearchBoxProps) {
  const [text, setText] = useState(search);
  const [shown, setShown] = useState(search);
  // The search changed elsewhere (back button, a link, reset): show it.
  if (search !== shown) {
    setShown(search);
    setText(search);
  }

  // Applied once the text has settled; a search set elsewhere meanwhile (Back) is not undone,
  // since the settled text then differs from the text shown until it settles too.
  const settled = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (live && settled === text && settled !== search) onApply(settled, exactMatch);
  }, [live, settled, text, search, exactMatch, onApply]);

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        size="small"
        placeholder="Search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onApply(text, exactMatch);
        }}
        slotProps={{
          htmlInput: { 'aria-label': 'Search' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton aria-label="Search" edge="end" size="small" onClick={() => onApply(text, exactMatch)}>
                  <SearchIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      {offerExactMatch && (
        <FormControlLabel
          label="Exact Match"
          control={
            <Checkbox size="small" checked={exactMatch} onChange={(event) => onApply(text, event.target.checked)} />
          }
        />
      )}
    </Stack>
  );
}
