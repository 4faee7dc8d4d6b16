/**
 * The list screens' filter controls (contacts, conversations, message hub, call log): a search box
 * with a magnifier, a select over fixed options, 'Clear filters', and the thin refetch bar.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import Search from '@mui/icons-material/Search';
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';

interface SearchFieldProps {
  /** The input's accessible name. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  sx?: SxProps<Theme>;
  maxLength?: number;
  inputMode?: 'tel' | 'text';
}

export function SearchField({ label, placeholder, value, onChange, sx, maxLength, inputMode }: SearchFieldProps) {
  return (
    <TextField
      size="small"
      type="search"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      sx={sx}
      slotProps={{
        htmlInput: { 'aria-label': label, maxLength, inputMode },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

interface SelectFilterProps<V extends string | number> {
  label: string;
  value: V;
  options: readonly V[];
  optionLabel: (option: V) => ReactNode;
  onChange: (value: V) => void;
  /** Adds an '' option with this text first ('All statuses'); the label then always shrinks. */
  allLabel?: string;
  disabledOptions?: ReadonlySet<unknown>;
  /** The theme makes text fields full width; filters usually are not. */
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

export function SelectFilter<V extends string | number>({ label, value, options, optionLabel, onChange, allLabel, disabledOptions, fullWidth = false, sx }: SelectFilterProps<V>) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange((typeof value === 'number' ? Number(e.target.value) : e.target.value) as V)}
      fullWidth={fullWidth}
      sx={sx}
      slotProps={allLabel === undefined ? undefined : { select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      {allLabel !== undefined && <MenuItem value="">{allLabel}</MenuItem>}
      {options.map((option) => (
        <MenuItem key={option} value={option} disabled={disabledOptions?.has(option)}>
          {optionLabel(option)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function ClearFiltersButton({ label, disabled, onClear }: { label: string; disabled: boolean; onClear: () => void }) {
  return (
    <Button startIcon={<FilterAltOffOutlined />} disabled={disabled} onClick={onClear} sx={{ flex: 'none', alignSelf: { xs: 'flex-start', md: 'center' } }}>
      {label}
    </Button>
  );
}

/** A progress line while a list refetches (not on its first load), else the same height of space. */
export function FetchingBar({ fetching }: { fetching: boolean }) {
  return fetching ? <LinearProgress sx={{ height: 2 }} /> : <Box sx={{ height: 2 }} />;
}
