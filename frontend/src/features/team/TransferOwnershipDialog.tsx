/**
 * The owner hands the account to an admin (issue 32): the admin is chosen from a list and the
 * owner types a word to confirm, since the new owner takes billing and can remove them.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Box from '@mui/material/Box';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Member } from '@agentdesk/functions/contract';
import { teamApi, teamKeys } from '../../api/team';
import { useToast } from '../../shared/useToast';
import { teamErrorText, teamText } from './messages';

interface TransferOwnershipDialogProps {
  open: boolean;
  onClose: () => void;
  members: Member[];
  /** Refreshes the session: the owner is an admin from now on. */
  onTransferred: () => Promise<unknown>;
}

export function TransferOwnershipDialog({ open, onClose, members, onTransferred }: TransferOwnershipDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const admins = members.filter((m) => m.role === 'admin');
  const [target, setTarget] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');
  const transfer = useMutation({ mutationFn: teamApi.transferOwnership, onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }) });
  const word = t('team.transfer.word');
  const ready = Boolean(target) && typed.trim().toLocaleUpperCase() === word.toLocaleUpperCase();

  const close = () => {
    if (transfer.isPending) return;
    setTarget('');
    setTyped('');
    setError('');
    onClose();
  };
  const submit = async () => {
    if (!ready) return;
    setError('');
    try {
      const env = await transfer.mutateAsync(target);
      toast.success(teamText(env.message, t('team.transfer.title')));
      close();
      await onTransferred();
    } catch (err) {
      setError(teamErrorText(err, t('team.transfer.failed')));
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="transfer-ownership-title">
      <DialogTitle id="transfer-ownership-title">{t('team.transfer.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('team.transfer.body')}</DialogContentText>
        {admins.length === 0 ? (
          <Alert severity="info">{t('team.transfer.noAdmins')}</Alert>
        ) : (
          <Box
            component="form"
            id="transfer-ownership-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Stack spacing={2}>
              <TextField select label={t('team.transfer.target')} value={target} onChange={(e) => setTarget(e.target.value)} required>
                {admins.map((admin) => (
                  <MenuItem key={admin._id} value={admin._id}>
                    {admin.name} ({admin.email})
                  </MenuItem>
                ))}
              </TextField>
              <TextField label={t('team.transfer.typeToConfirm', { word })} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
            </Stack>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={transfer.isPending}>
          {t('common.cancel')}
        </Button>
        {admins.length > 0 && (
          <Button type="submit" form="transfer-ownership-form" variant="contained" color="warning" disabled={!ready || transfer.isPending}>
            {transfer.isPending ? t('team.transfer.pending') : t('team.transfer.confirm')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
