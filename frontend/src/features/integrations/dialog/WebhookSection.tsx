/** What the provider must call, shown after a setup and in the connected view: the titled section and its copyable values. */
import type { FocusEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../shared/useToast';
import type { IntegrationDialogName } from './names';

/** A read-only value with a copy button (the webhook URLs, the verify token). */
export function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t('integrations.whatsapp.copied'));
    } catch {
      toast.error(t('integrations.whatsapp.copyFailed'));
    }
  };
  const copyLabel = t('integrations.whatsapp.copy', { field: label });
  return (
    <TextField
      label={label}
      value={value}
      size="small"
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': testId, onFocus: (e: FocusEvent<HTMLInputElement>) => e.target.select() },
        input: {
          sx: { fontFamily: 'monospace', fontSize: 13 },
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copyLabel}>
                <IconButton edge="end" onClick={() => void copy()} aria-label={copyLabel}>
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** `integrations.<name>.webhookTitle` / `webhookHint` above the values (`<name>-webhook-details`). */
export function WebhookSection({ name, children }: { name: IntegrationDialogName; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby={`${name}-webhook-title`} data-testid={`${name}-webhook-details`}>
      <Typography id={`${name}-webhook-title`} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t(`integrations.${name}.webhookTitle`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t(`integrations.${name}.webhookHint`)}
      </Typography>
      <Stack spacing={1.5}>{children}</Stack>
    </Box>
  );
}
