/** The credential input of the setup forms (API key, auth token, bearer token, app secret). */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { MASKED_SECRET } from '@agentdesk/functions/contract';
import { contractFieldProps as fieldProps } from '../../../shared/apiTexts';

export interface SecretFieldProps {
  label: string;
  registration: UseFormRegisterReturn;
  /** The field's current value (watched): '***' while the stored secret is kept. */
  value: string | undefined;
  stored: boolean;
  error: FieldError | undefined;
  helperText: string;
  showLabel: string;
  hideLabel: string;
  placeholder?: string;
}

/** A secret input: '***' when stored (focusing selects it, so typing replaces it), else hidden text with a show toggle. */
export function SecretField({ label, registration, value, stored, error, helperText, showLabel, hideLabel, placeholder }: SecretFieldProps) {
  const [show, setShow] = useState(false);
  const masked = stored && value === MASKED_SECRET;
  return (
    <TextField
      label={label}
      type={show && !masked ? 'text' : 'password'}
      autoComplete="off"
      required={!stored}
      placeholder={placeholder}
      {...registration}
      onFocus={(e) => {
        if (e.target.value === MASKED_SECRET) e.target.select();
      }}
      {...fieldProps(error, helperText)}
      slotProps={{
        input: {
          endAdornment: masked ? undefined : (
            <InputAdornment position="end">
              <IconButton edge="end" onClick={() => setShow((v) => !v)} aria-label={show ? hideLabel : showLabel}>
                {show ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
