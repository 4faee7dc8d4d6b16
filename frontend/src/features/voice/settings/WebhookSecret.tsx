/**
 * The summary webhook's signing secret (beyond the spec; README "Verifying summary webhooks"):
 * the stored hint ('whsec_…a1b2'), Reveal (created on first use) with a copy button, and Rotate
 * after a confirmation.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Autorenew from '@mui/icons-material/Autorenew';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { useToast } from '../../../shared/useToast';
import { serverOr } from './messages';
import { useRevealSecret, useRotateSecret } from './queries';

export function WebhookSecret({ hint }: { hint: string | null }) {
  const { t } = useTranslation();
  const toast = useToast();
  const reveal = useRevealSecret();
  const rotate = useRotateSecret();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const onReveal = async () => {
    if (secret) {
      setSecret(null);
      return;
    }
    try {
      setSecret((await reveal.mutateAsync()).secret);
    } catch (err) {
      toast.error(serverOr(err, t('voiceSettings.secret.revealFailed')));
    }
  };
  const onRotate = async () => {
    try {
      const next = await rotate.mutateAsync();
      setSecret(next.secret);
      setConfirming(false);
      toast.success(t('voiceSettings.secret.rotated'));
    } catch (err) {
      toast.error(serverOr(err, t('voiceSettings.secret.rotateFailed')));
    }
  };
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(t('voiceSettings.secret.copied'));
    } catch {
      toast.error(t('voiceSettings.secret.copyFailed'));
    }
  };

  return (
    <Box data-testid="voice-webhook-secret">
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {t('voiceSettings.secret.label')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {hint ? t('voiceSettings.secret.hint', { hint }) : t('voiceSettings.secret.none')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        {secret && (
          <TextField
            value={secret}
            size="small"
            sx={{ flex: 1 }}
            slotProps={{
              htmlInput: { readOnly: true, 'aria-label': t('voiceSettings.secret.label'), 'data-testid': 'voice-webhook-secret-value' },
              input: {
                sx: { fontFamily: 'monospace', fontSize: 13 },
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t('voiceSettings.secret.copy')}>
                      <IconButton edge="end" onClick={() => void copy()} aria-label={t('voiceSettings.secret.copy')}>
                        <ContentCopy fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
        <Button variant="outlined" startIcon={secret ? <VisibilityOff /> : <Visibility />} onClick={() => void onReveal()} disabled={reveal.isPending}>
          {secret ? t('voiceSettings.secret.hide') : t('voiceSettings.secret.reveal')}
        </Button>
        <Button variant="outlined" color="warning" startIcon={<Autorenew />} onClick={() => setConfirming(true)} disabled={!hint && !secret}>
          {t('voiceSettings.secret.rotate')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t('voiceSettings.secret.rotateTitle')}
        body={t('voiceSettings.secret.rotateBody')}
        confirmLabel={t('voiceSettings.secret.rotate')}
        pendingLabel={t('voiceSettings.secret.rotating')}
        pending={rotate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onRotate()}
      />
    </Box>
  );
}
