import type { ReactNode } from 'react';
import type { ControllerRenderProps, FieldError, FieldPath, FieldValues } from 'react-hook-form';
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

/** TextField props that make it a select bound to a react-hook-form Controller field. */
export function selectProps<Values extends FieldValues, Name extends FieldPath<Values>>(field: ControllerRenderProps<Values, Name>) {
  return { select: true, name: field.name, value: field.value, onChange: field.onChange, onBlur: field.onBlur, inputRef: field.ref };
}
