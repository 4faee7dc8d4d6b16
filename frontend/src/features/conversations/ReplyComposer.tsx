/**
 * The reply box of the conversation modal while the 24-hour window is open: the text, Send, and
 * the `/` shortcut that inserts a saved reply (issue 17). Enter sends, Shift+Enter breaks the
 * line; while the `/` list is open, Enter inserts the chosen reply instead.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Send from '@mui/icons-material/Send';
import { useTranslation } from 'react-i18next';
import { REPLY_MAX } from './format';
import { SavedReplyPicker, useSavedReplyShortcut } from './saved-replies/SavedReplyPicker';

interface ReplyComposerProps {
  /** The window is open: a free-form reply can be sent. */
  open: boolean;
  sending: boolean;
  /** Resolves true when the reply was sent (the box then clears). */
  onSend: (text: string) => Promise<boolean>;
}

export function ReplyComposer({ open, sending, onSend }: ReplyComposerProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const shortcut = useSavedReplyShortcut({ draft, setDraft, input: () => inputRef.current, enabled: open && !sending });

  const send = async () => {
    const text = draft.trim();
    if (!text || !open || sending) return;
    if (await onSend(text)) setDraft('');
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (shortcut.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Box sx={{ position: 'relative', flex: 1, minWidth: 0 }}>
        <SavedReplyPicker shortcut={shortcut} />
        <TextField
          multiline
          maxRows={4}
          size="small"
          fullWidth
          label={t('conversations.modal.reply')}
          placeholder={t('conversations.modal.replyPlaceholder')}
          value={draft}
          inputRef={inputRef}
          onChange={(e) => shortcut.onChange(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') shortcut.syncCaret();
          }}
          onClick={shortcut.syncCaret}
          disabled={!open}
          helperText={open ? undefined : t('conversations.modal.windowClosedHint')}
          slotProps={{ htmlInput: { maxLength: REPLY_MAX, readOnly: sending, ...shortcut.inputAria } }}
        />
      </Box>
      <Button variant="contained" endIcon={<Send />} onClick={() => void send()} disabled={!open || sending || draft.trim() === ''} sx={{ flex: 'none', mt: '2px' }}>
        {sending ? t('conversations.modal.sending') : t('conversations.modal.send')}
      </Button>
    </Stack>
  );
}
