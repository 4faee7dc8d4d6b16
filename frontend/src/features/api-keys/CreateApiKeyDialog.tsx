/** Create an API key: a name (createApiKeyRequest's rules), then the key goes to the copy-once dialog. */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { API_KEY_LIMITS, createApiKeyRequest, type CreatedApiKey } from '@agentdesk/functions/contract';
import { apiKeyQueryKeys, apiKeysApi } from './api';
import { apiKeyErrorText, translateApiKeyText } from './messages';
import { FormDialogActions } from '../../shared/FormDialogActions';

interface CreateApiKeyDialogProps {
  open: boolean;
  onClose: () => void;
  /** The new key, with the server's message (shown in the copy-once dialog). */
  onCreated: (created: CreatedApiKey, message: string | undefined) => void;
}

export function CreateApiKeyDialog({ open, onClose, onCreated }: CreateApiKeyDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const create = useMutation({
    mutationFn: (value: string) => apiKeysApi.create(value),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyQueryKeys.all }),
  });

  const reset = () => {
    setName('');
    setError('');
    create.reset();
  };
  const close = () => {
    if (create.isPending) return;
    reset();
    onClose();
  };
  const submit = async () => {
    const parsed = createApiKeyRequest.safeParse({ name });
    if (!parsed.success) {
      setError(translateApiKeyText(parsed.error.issues[0]?.message));
      return;
    }
    try {
      const env = await create.mutateAsync(parsed.data.name);
      if (!env.data?.key) throw new Error('No key in the answer');
      reset();
      onCreated(env.data, env.message);
    } catch (err) {
      setError(apiKeyErrorText(err, t('apiKeys.createDialog.failed')));
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="create-api-key-title">
      <DialogTitle id="create-api-key-title">{t('apiKeys.createDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('apiKeys.createDialog.body')}</DialogContentText>
        <Box
          component="form"
          id="create-api-key-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField
            label={t('apiKeys.createDialog.name')}
            required
            fullWidth
            autoFocus
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (error) setError('');
            }}
            error={Boolean(error)}
            helperText={error || `${name.length}/${API_KEY_LIMITS.name}`}
            slotProps={{ htmlInput: { maxLength: API_KEY_LIMITS.name } }}
          />
        </Box>
      </DialogContent>
      <FormDialogActions
        cancelLabel={t('common.cancel')}
        submitLabel={t('apiKeys.createDialog.submit')}
        pendingLabel={t('apiKeys.createDialog.pending')}
        pending={create.isPending}
        onCancel={close}
        form="create-api-key-form"
      />
    </Dialog>
  );
}
