/**
 * Inbox settings (issue 17), opened from the conversations page: how long the AI stays quiet
 * after a person's reply (1-168 hours), escalation alerts by e-mail, and a WhatsApp number for
 * alerts (stored in E.164; Spanish numbers work without +34). Loading and error states; the
 * server's refusals shown on their field.
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { INBOX_LIMITS, inboxMessages, type InboxSettings } from '@agentdesk/functions/contract';
import { ApiError } from '../../../api/client';
import { FormDialog } from '../../../shared/FormDialog';
import { RetryAlert } from '../../../shared/RetryAlert';
import { useToast } from '../../../shared/useToast';
import { usePhoneFieldProps } from '../../../shared/usePhoneFieldProps';
import { inboxTexts, useInboxSettings, useSaveInboxSettings } from './api';
import './i18n';

interface InboxSettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

type Field = 'aiResumeAfterHours' | 'alertWhatsappNumber' | 'form';

export function InboxSettingsDialog({ open, onClose }: InboxSettingsDialogProps) {
  const settings = useInboxSettings(open);
  // The form starts from what the server holds (a new load starts it again).
  return (
    <SettingsForm
      key={settings.dataUpdatedAt}
      open={open}
      onClose={onClose}
      initial={settings.data}
      loading={settings.isPending}
      failed={settings.isError}
      onRetry={() => void settings.refetch()}
    />
  );
}

function SettingsForm({
  open,
  onClose,
  initial,
  loading,
  failed,
  onRetry,
}: InboxSettingsDialogProps & { initial: InboxSettings | undefined; loading: boolean; failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  const phone = usePhoneFieldProps();
  const toast = useToast();
  const save = useSaveInboxSettings();
  const [hours, setHours] = useState(String(initial?.aiResumeAfterHours ?? ''));
  const [byEmail, setByEmail] = useState(initial?.alertByEmail ?? true);
  const [number, setNumber] = useState(initial?.alertWhatsappNumber ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { min, max } = INBOX_LIMITS.aiResumeAfterHours;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!initial) return;
    const n = Number(hours);
    if (hours.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      setErrors({ aiResumeAfterHours: inboxTexts.translate(inboxMessages.resumeHoursInvalid) });
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ aiResumeAfterHours: n, alertByEmail: byEmail, alertWhatsappNumber: number.trim() });
      if (saved) setNumber(saved.alertWhatsappNumber);
      toast.success(inboxTexts.translate(inboxMessages.settingsSaved));
      onClose();
    } catch (err) {
      const field = err instanceof ApiError && typeof err.body?.field === 'string' ? err.body.field : '';
      const text = inboxTexts.errorText(err, t('inbox.settings.saveFailed'));
      setErrors(field === 'aiResumeAfterHours' || field === 'alertWhatsappNumber' ? { [field]: text } : { form: text });
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('inbox.settings.title')}
      titleId="inbox-settings-title"
      onSubmit={(e) => void onSubmit(e)}
      cancelLabel={t('inbox.settings.cancel')}
      submitLabel={t('inbox.settings.save')}
      pendingLabel={t('inbox.settings.save')}
      pending={save.isPending || !initial}
    >
      {loading ? (
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="inbox-settings-loading">
          <Skeleton variant="rounded" height={56} />
          <Skeleton variant="rounded" height={32} />
          <Skeleton variant="rounded" height={56} />
        </Stack>
      ) : failed || !initial ? (
        <RetryAlert retryLabel={t('inbox.settings.retry')} onRetry={onRetry}>
          {t('inbox.settings.loadFailed')}
        </RetryAlert>
      ) : (
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('inbox.settings.intro')}
          </Typography>
          {errors.form && (
            <Alert severity="error" data-testid="inbox-settings-error">
              {errors.form}
            </Alert>
          )}
          <TextField
            label={t('inbox.settings.hours')}
            type="number"
            value={hours}
            onChange={(e) => setHours(e.target.value)}
            error={Boolean(errors.aiResumeAfterHours)}
            helperText={errors.aiResumeAfterHours ?? t('inbox.settings.hoursHelp')}
            slotProps={{ htmlInput: { min, max, step: 1, inputMode: 'numeric' } }}
            required
            fullWidth
          />
          <FormControlLabel control={<Switch checked={byEmail} onChange={(e) => setByEmail(e.target.checked)} />} label={t('inbox.settings.alertByEmail')} />
          <TextField
            label={t('inbox.settings.alertWhatsapp')}
            type="tel"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            error={Boolean(errors.alertWhatsappNumber)}
            helperText={errors.alertWhatsappNumber ?? t('inbox.settings.alertWhatsappHelp')}
            placeholder={phone.placeholder}
            slotProps={{ input: { startAdornment: phone.startAdornment }, htmlInput: { autoComplete: 'tel', maxLength: INBOX_LIMITS.alertWhatsappNumber } }}
            fullWidth
          />
        </Stack>
      )}
    </FormDialog>
  );
}
