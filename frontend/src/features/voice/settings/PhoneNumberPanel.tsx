/**
 * The phone number request panel (SPEC §2 Voice settings, anchor #phone-number; §4 pending,
 * approved, rejected, assigned; §5 cancel confirmation; §8 texts; §9 up to 96 hours). With no
 * request (or a rejected one) the request button shows with optional notes; a pending request can
 * be cancelled after confirming; an assigned request shows the number. With Twilio Voice connected
 * (issue 29) the panel shows that number instead and offers no request: calls already reach the agent.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { VOICE_LIMITS, voiceMessages, type PhoneNumberRequest } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { useToast } from '../../../shared/useToast';
import { serverOr, translateVoiceText } from './messages';
import { useCancelPhoneRequest, useRequestPhone } from './queries';
import { formatDate } from '../../../shared/intl';
import { PHONE_STATUS_COLOR } from '../../../shared/phoneRequestStatus';
import { formatPhone } from '../../../shared/phone';
import { twilioNumberOf, useIntegrations } from '../../../api/integrations';

/** Whether a new request may be made: none yet, or the last one was rejected. */
export function canRequest(phone: PhoneNumberRequest): boolean {
  return phone.status === null || phone.status === 'rejected';
}

export function PhoneNumberPanel({ phone }: { phone: PhoneNumberRequest }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const requestPhone = useRequestPhone();
  const cancelRequest = useCancelPhoneRequest();
  const [notes, setNotes] = useState('');
  const [confirming, setConfirming] = useState(false);
  const tooLong = notes.trim().length > VOICE_LIMITS.notes;
  const twilio = useIntegrations().data?.find((i) => i.type === 'twilio-voice');
  const connected = twilio?.isActive ? twilioNumberOf(twilio) : '';

  const onRequest = async () => {
    if (tooLong) return;
    try {
      const env = await requestPhone.mutateAsync(notes.trim());
      setNotes('');
      toast.success(env.message ? translateVoiceText(env.message) : t('voiceSettings.phone.requested'));
    } catch (err) {
      toast.error(serverOr(err, t('voiceSettings.phone.requestFailed')));
    }
  };
  const onCancel = async () => {
    try {
      const env = await cancelRequest.mutateAsync();
      setConfirming(false);
      toast.success(env.message ? translateVoiceText(env.message) : t('voiceSettings.phone.cancelled'));
    } catch (err) {
      setConfirming(false);
      toast.error(serverOr(err, t('voiceSettings.phone.cancelFailed')));
    }
  };

  const status = phone.status;
  return (
    <Card id="phone-number" component="section" aria-labelledby="phone-number-title" data-testid="phone-number-panel" sx={{ scrollMarginTop: 80 }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <PhoneOutlined color="primary" aria-hidden />
          <Typography id="phone-number-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('voiceSettings.sections.phone')}
          </Typography>
          {connected && <Chip size="small" color="success" label={t('voiceSettings.phone.connected')} data-testid="phone-connected" />}
          {status && !connected && (
            <Chip
              size="small"
              color={PHONE_STATUS_COLOR[status]}
              label={t(`voiceSettings.phone.statuses.${status}`)}
              data-testid="phone-request-status"
              aria-label={`${t('voiceSettings.phone.status')}: ${t(`voiceSettings.phone.statuses.${status}`)}`}
            />
          )}
        </Stack>
        {/* 'A number assigned by our team' is not true of the owner's own Twilio number. */}
        {!connected && (
          <Typography variant="body2" color="text.secondary">
            {t('voiceSettings.phone.intro')}
          </Typography>
        )}
        {connected ? (
          <Stack spacing={0.5} sx={{ mb: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {t('voiceSettings.phone.connectedNumber')}
            </Typography>
            <Typography variant="h5" component="p" data-testid="phone-connected-number" sx={{ fontWeight: 600 }}>
              {formatPhone(connected)}
            </Typography>
            <Typography variant="body2">{t('voiceSettings.phone.connectedNote')}</Typography>
            <Link component={RouterLink} to="/integrations" variant="body2" sx={{ alignSelf: 'flex-start', py: 0.5 }}>
              {t('voiceSettings.phone.manageConnected')}
            </Link>
          </Stack>
        ) : (
          <Alert severity="info" sx={{ my: 2 }} data-testid="phone-wait-note">
            {t('voiceSettings.phone.waitNote')}
          </Alert>
        )}

        {status === 'assigned' && phone.number && (
          <Stack spacing={0.5} sx={{ mb: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t('voiceSettings.phone.number')}
            </Typography>
            <Typography variant="h5" component="p" data-testid="phone-assigned-number" sx={{ fontWeight: 600 }}>
              {formatPhone(phone.number)}
            </Typography>
            {phone.assignedAt && (
              <Typography variant="body2" color="text.secondary">
                {t('voiceSettings.phone.assignedAt')}: {formatDate(i18n.language, phone.assignedAt)}
              </Typography>
            )}
            <Typography variant="body2">{t('voiceSettings.phone.assignedNote')}</Typography>
          </Stack>
        )}

        {(status === 'pending' || status === 'approved') && (
          <Stack spacing={1} sx={{ mb: 1 }}>
            <Typography variant="body2">{status === 'pending' ? t('voiceSettings.phone.pendingNote') : t('voiceSettings.phone.approvedNote')}</Typography>
            {phone.requestedAt && (
              <Typography variant="body2" color="text.secondary">
                {t('voiceSettings.phone.requestedAt')}: {formatDate(i18n.language, phone.requestedAt)}
              </Typography>
            )}
            {phone.notes && (
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
                {t('voiceSettings.phone.notes')}: {phone.notes}
              </Typography>
            )}
          </Stack>
        )}

        {status === 'rejected' && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t('voiceSettings.phone.rejectedNote')}
            {phone.rejectionReason ? ` ${t('voiceSettings.phone.rejectedReason', { reason: phone.rejectionReason })}` : ''}
          </Alert>
        )}

        {canRequest(phone) && !connected && (
          <Stack spacing={2}>
            <TextField
              label={t('voiceSettings.phone.notes')}
              placeholder={t('voiceSettings.phone.notesPlaceholder')}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              multiline
              minRows={2}
              error={tooLong}
              helperText={tooLong ? translateVoiceText(voiceMessages.notesTooLong) : t('voiceSettings.phone.notesHint')}
            />
            <div>
              <Button variant="contained" onClick={() => void onRequest()} disabled={requestPhone.isPending || tooLong} startIcon={<PhoneOutlined />}>
                {requestPhone.isPending ? t('voiceSettings.phone.requesting') : t('voiceSettings.phone.request')}
              </Button>
            </div>
          </Stack>
        )}

        {status === 'pending' && (
          <Button color="error" variant="outlined" onClick={() => setConfirming(true)} sx={{ mt: 1 }}>
            {t('voiceSettings.phone.cancel')}
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title={t('voiceSettings.phone.cancelTitle')}
        body={t('voiceSettings.phone.cancelConfirm')}
        confirmLabel={t('voiceSettings.phone.cancel')}
        pendingLabel={t('voiceSettings.phone.cancelling')}
        pending={cancelRequest.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onCancel()}
      />
    </Card>
  );
}
