/**
 * Invite a person (issue 32): e-mail and role (admin or agent, inviteRequest's rules), the seats in
 * use; a full plan says so, with the way to the plans for the owner.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ASSIGNABLE_ROLES, INVITATION_TTL_DAYS, inviteRequest, type AssignableRole, type MemberRole } from '@agentdesk/functions/contract';
import { serverMessageOf } from '../../api/client';
import { teamApi, teamKeys } from '../../api/team';
import { fieldProps, selectProps } from '../../shared/forms';
import { FormDialogActions } from '../../shared/FormDialogActions';
import { useToast } from '../../shared/useToast';
import { isSeatsFull, teamErrorText, teamText } from './messages';

interface InviteDialogProps {
  open: boolean;
  onClose: () => void;
  seats: { used: number; limit: number };
  /** The inviter's role: the owner is offered the plans when the seats are full. */
  yourRole: MemberRole;
}

export function InviteDialog({ open, onClose, seats, yourRole }: InviteDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<{ text: string; seatsFull: boolean } | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(inviteRequest), defaultValues: { email: '', role: 'agent' as AssignableRole } });
  const invite = useMutation({
    mutationFn: teamApi.invite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });

  const full = seats.used >= seats.limit;
  const close = () => {
    if (isSubmitting) return;
    reset();
    setFailure(null);
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const env = await invite.mutateAsync(values);
      toast.success(teamText(env.message, t('team.inviteDialog.submit')));
      reset();
      onClose();
    } catch (err) {
      // No seat left (teamMessages.seatsFull): the owner gets the way to the plans.
      const seatsFull = isSeatsFull(serverMessageOf(err));
      setFailure({ text: teamErrorText(err, t('team.inviteDialog.failed')), seatsFull });
    }
  });

  const planLink = yourRole === 'owner' && (
    <Link component={RouterLink} to="/subscription" sx={{ ml: 0.5 }}>
      {t('team.inviteDialog.upgrade')}
    </Link>
  );

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="invite-member-title">
      <DialogTitle id="invite-member-title">{t('team.inviteDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('team.inviteDialog.body', { days: INVITATION_TTL_DAYS })}</DialogContentText>
        <Box component="form" id="invite-member-form" noValidate onSubmit={onSubmit}>
          <Stack spacing={2}>
            <TextField label={t('team.inviteDialog.email')} type="email" autoComplete="off" required autoFocus {...register('email')} {...fieldProps(errors.email)} />
            <Controller
              name="role"
              control={control}
              render={({ field }) => (
                <TextField label={t('team.inviteDialog.role')} {...selectProps(field)} {...fieldProps(errors.role, t(`team.roleHints.${field.value}`))}>
                  {ASSIGNABLE_ROLES.map((role) => (
                    <MenuItem key={role} value={role}>
                      {t(`team.roles.${role}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Typography variant="body2" color={full ? 'warning.main' : 'text.secondary'} data-testid="invite-seats">
              {t('team.seats', { used: seats.used, limit: seats.limit })}
            </Typography>
            {full && !failure && (
              <Alert severity="warning">
                {t('team.inviteDialog.seatsFull')}
                {planLink}
              </Alert>
            )}
            {failure && (
              <Alert severity="error" role="alert">
                {failure.text}
                {failure.seatsFull && planLink}
              </Alert>
            )}
          </Stack>
        </Box>
      </DialogContent>
      <FormDialogActions
        cancelLabel={t('common.cancel')}
        submitLabel={t('team.inviteDialog.submit')}
        pendingLabel={t('team.inviteDialog.pending')}
        pending={isSubmitting}
        onCancel={close}
        form="invite-member-form"
      />
    </Dialog>
  );
}
