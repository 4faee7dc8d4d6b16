import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { translateMessage } from '../i18n';

/**
 * TextField props for a react-hook-form field error, translated (by default with the app's
 * translateMessage; a feature passes its own contract-text translator), else an optional hint.
 */
export function fieldProps<Hint extends ReactNode = string>(
  error: FieldError | undefined,
  hint?: Hint,
  translate: (text: string) => string = translateMessage,
): { error: boolean; helperText: Hint | string | undefined } {
  if (error?.message) return { error: true, helperText: translate(error.message) };
  return { error: false, helperText: hint };
}
