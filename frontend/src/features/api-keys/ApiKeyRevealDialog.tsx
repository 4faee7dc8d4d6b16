/**
 * The copy-once dialog: the full key, shown only now (after create or regenerate), with a copy
 * button and the warning that it will not be shown again. It closes only with its own button.
 */
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Check from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import { apiKeyMessages } from '@agentdesk/functions/contract';
import { copyText } from '../../shared/clipboard';
import { useToast } from '../../shared/useToast';
import { translateApiKeyText } from './messages';

export interface RevealedKey {
  kind: 'created' | 'regenerated';
  name: string;
  key: string;
  /** The server's message; the contract's text for the kind when it sent none. */
  message?: string;
}

export function ApiKeyRevealDialog({ revealed, onClose }: { revealed: RevealedKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const kind = revealed?.kind ?? 'created';
  const warning = translateApiKeyText(revealed?.message || apiKeyMessages[kind]);

  const copy = async () => {
    if (!revealed) return;
    if (await copyText(revealed.key, inputRef.current)) setCopied(true);
    else toast.error(t('apiKeys.reveal.copyFailed'));
  };
  const close = () => {
    setCopied(false);
    onClose();
  };

  return (
    <Dialog open={revealed !== null} maxWidth="sm" fullWidth aria-labelledby="api-key-reveal-title" data-testid="api-key-reveal">
      <DialogTitle id="api-key-reveal-title">
        {kind === 'created' ? t('apiKeys.reveal.createdTitle') : t('apiKeys.reveal.regeneratedTitle')}
        {revealed?.name ? `: ${revealed.name}` : ''}
      </DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {warning}
        </Alert>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('apiKeys.reveal.label')}
            value={revealed?.key ?? ''}
            fullWidth
            inputRef={inputRef}
            onFocus={(e) => e.target.select()}
            slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
          />
          <Button
            variant={copied ? 'outlined' : 'contained'}
            startIcon={copied ? <Check /> : <ContentCopy />}
            onClick={() => void copy()}
            sx={{ minWidth: 120, height: 56 }}
          >
            {copied ? t('apiKeys.reveal.copied') : t('apiKeys.reveal.copy')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" color="primary" onClick={close}>
          {t('apiKeys.reveal.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
