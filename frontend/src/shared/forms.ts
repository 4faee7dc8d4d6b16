import type { FieldError } from 'react-hook-form';
import { translateMessage } from '../i18n';

/** TextField props for a react-hook-form field error (translated), else an optional hint. */
export function fieldState(error: FieldError | undefined, hint?: string): { error: boolean; helperText: string | undefined } {
  if (error?.message) return { error: true, helperText: translateMessage(error.message) };
  return { error: false, helperText: hint };
}
