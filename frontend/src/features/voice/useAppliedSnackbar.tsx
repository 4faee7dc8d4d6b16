/**
 * After "Apply to contact": a snackbar "Contact updated" (or "Contact created") with one Undo
 * button, kept while the undo is possible for a while; pressing it closes the snackbar (so it
 * runs once) and undoes the apply on the server, which refuses if the contact changed since.
 */
import { useCallback } from 'react';
import Button from '@mui/material/Button';
import { useSnackbar, type SnackbarKey } from 'notistack';
import { useTranslation } from 'react-i18next';
import type { ApplyContactResult } from '@agentdesk/functions/contract';
import { errorMessage, translateMessage } from '../../i18n';
import { useToast } from '../../shared/useToast';
import { useUndoApplyContact } from './callQueries';

/** Long enough to notice and press Undo (the server keeps the undo for 10 minutes). */
const UNDO_SNACKBAR_MS = 15_000;

export function useAppliedSnackbar(callId: string) {
  const { t } = useTranslation();
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  const toast = useToast();
  const undo = useUndoApplyContact(callId);
  const { mutateAsync } = undo;

  return useCallback(
    (result: ApplyContactResult) => {
      const runUndo = async (key: SnackbarKey) => {
        closeSnackbar(key);
        try {
          const env = await mutateAsync(result.undo.token);
          toast.success(env.message ? translateMessage(env.message) : t('voiceCalls.applyContact.undone'));
        } catch (err) {
          toast.error(errorMessage(err, t('voiceCalls.applyContact.undoFailed')));
        }
      };
      enqueueSnackbar(result.created ? t('voiceCalls.applyContact.created') : t('voiceCalls.applyContact.updated'), {
        variant: 'success',
        autoHideDuration: UNDO_SNACKBAR_MS,
        action: (key) => (
          <Button color="inherit" size="small" onClick={() => void runUndo(key)} data-testid="apply-undo">
            {t('voiceCalls.applyContact.undo')}
          </Button>
        ),
      });
    },
    [closeSnackbar, enqueueSnackbar, mutateAsync, t, toast],
  );
}
