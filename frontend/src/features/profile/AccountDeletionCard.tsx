/**
 * "Eliminar la cuenta" (issue 33; the owner only): a danger-zone card whose dialog says what
 * happens — the subscription cancelled, every member's access removed, all data deleted, a last
 * e-mail — and asks for the typed word (ELIMINAR / DELETE as shown in the UI's language). On the
 * server's 202 the session ends and the goodbye page (public) says the account is being deleted.
 */
import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { privacyApi } from '../../api/privacy';
import { errorMessage } from '../../i18n';
import '../../shared/privacy/strings';

const CONSEQUENCES = ['subscription', 'members', 'data', 'email'] as const;

export function AccountDeletionCard() {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const word = t('privacy.account.word');
  const remove = useMutation({
    mutationFn: () => privacyApi.deleteAccount(typed.trim()),
    // The goodbye page (public) ends the session once it shows: signing out here, before the router's
    // navigation (a transition) commits, would let this page's access guard send the browser to /login.
    onSuccess: () => navigate('/account-deleted', { replace: true, state: { signOut: true } }),
  });
  const ready = typed.trim().toLocaleUpperCase() === word.toLocaleUpperCase() && !remove.isPending;
  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    setTyped('');
    remove.reset();
  };

  return (
    <Card variant="outlined" sx={{ borderColor: 'error.main' }} data-testid="account-deletion-card">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" color="error">
          {t('privacy.account.heading')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('privacy.account.body')}
        </Typography>
        <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
          {t('privacy.account.button')}
        </Button>
      </CardContent>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby={`${id}-title`}>
        <DialogTitle id={`${id}-title`}>{t('privacy.account.dialogTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('privacy.account.what')}</DialogContentText>
          <Box component="ul" sx={{ pl: 3, my: 1 }}>
            {CONSEQUENCES.map((key) => (
              <Typography component="li" key={key} sx={{ mb: 0.5 }}>
                {t(`privacy.account.${key}`)}
              </Typography>
            ))}
          </Box>
          <DialogContentText sx={{ fontWeight: 600, mb: 2 }} color="error">
            {t('privacy.account.irreversible')}
          </DialogContentText>
          <form
            id={`${id}-form`}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (ready) remove.mutate();
            }}
          >
            <TextField label={t('privacy.account.typeToConfirm', { word })} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" fullWidth />
          </form>
          {remove.isError && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {errorMessage(remove.error, t('privacy.account.failed'))}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={remove.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={`${id}-form`} variant="contained" color="error" disabled={!ready}>
            {remove.isPending ? t('privacy.account.pending') : t('privacy.account.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
