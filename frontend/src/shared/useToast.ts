import { useMemo } from 'react';
import { useSnackbar } from 'notistack';

/** Toasts (SPEC §9): top-right; success 3 s, error 5 s, default 4 s. */
export function useToast() {
  const { enqueueSnackbar } = useSnackbar();
  return useMemo(
    () => ({
      success: (message: string) => enqueueSnackbar(message, { variant: 'success', autoHideDuration: 3000 }),
      error: (message: string) => enqueueSnackbar(message, { variant: 'error', autoHideDuration: 5000 }),
      info: (message: string) => enqueueSnackbar(message, { variant: 'default', autoHideDuration: 4000 }),
    }),
    [enqueueSnackbar],
  );
}
