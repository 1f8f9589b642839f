import { useEffect, useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_DEBOUNCE_MS } from '@cfs/contracts/constants';

export interface SearchBoxProps {
  /** The search in effect (from the list state). */
  search: string;
  exactMatch: boolean;
  onApply: (search: string, exactMatch: boolean) => void;
  offerExactMatch?: boolean;
  /** Apply while typing, 250 ms after the last key (spec 000 §9), besides Enter and the button. */
  live?: boolean;
  placeholder?: string;
}

/** The grid toolbar's search (spec 000 §2): applied on Enter or the search button. */
export function SearchBox({ search, exactMatch, onApply, offerExactMatch = false, live = false, placeholder = 'Search' }: SearchBoxProps) {
  const [text, setText] = useState(search);
  const [shown, setShown] = useState(search);
  // The search changed elsewhere (back button, a link, reset): show it.
  if (search !== shown) {
    setShown(search);
    setText(search);
  }

  useEffect(() => {
    if (!live || text === search) return;
    const timer = setTimeout(() => onApply(text, exactMatch), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [live, text, search, exactMatch, onApply]);

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        size="small"
        placeholder={placeholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onApply(text, exactMatch);
        }}
        slotProps={{
          htmlInput: { 'aria-label': placeholder },
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
          control={<Checkbox size="small" checked={exactMatch} onChange={(event) => onApply(text, event.target.checked)} />}
        />
      )}
    </Stack>
  );
}
