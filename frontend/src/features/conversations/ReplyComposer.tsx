/**
 * The reply box of the conversation modal while the 24-hour window is open: the text, Send, and
 * the `/` shortcut that inserts a saved reply (issue 17). Enter sends, Shift+Enter breaks the
 * line; while the `/` list is open, Enter inserts the chosen reply instead.
 *
 * Attach (issue 31): an image or a document goes straight to storage as soon as it is chosen
 * (a signed form from POST …/attachments, with upload progress), shown as a chip with its name
 * and size that can be removed; Send then sends it with the text as its caption (a file alone is
 * fine). What cannot be attached is said before anything is uploaded, in the contract's words.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Send from '@mui/icons-material/Send';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_TYPES, MEDIA_LIMITS, attachmentKindOf, mediaMessages } from '@agentdesk/functions/contract';
import { postFileToTicket } from '../../api/agentKnowledge';
import { conversationsApi } from '../../api/conversations';
import { errorMessage, translateMessage } from '../../i18n';
import { formatBytes } from '../../shared/intl';
import { REPLY_MAX } from './format';
import { SavedReplyPicker, useSavedReplyShortcut } from './saved-replies/SavedReplyPicker';

/** The type of a file the browser names none for (some systems give .doc/.xlsx no type): by its extension. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  txt: 'text/plain',
};
const ACCEPT = [...ATTACHMENT_TYPES.image, ...ATTACHMENT_TYPES.document, ...Object.keys(TYPE_BY_EXTENSION).map((ext) => `.${ext}`)].join(',');

function attachmentType(file: File): string {
  if (attachmentKindOf(file.type)) return file.type;
  return TYPE_BY_EXTENSION[/\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? ''] ?? file.type;
}

interface Attachment {
  file: File;
  kind: 'image' | 'document';
  status: 'uploading' | 'ready' | 'failed';
  loaded: number;
  uploadId?: string;
}

interface ReplyComposerProps {
  conversationId: string;
  /** The window is open: a free-form reply can be sent. */
  open: boolean;
  sending: boolean;
  /** Resolves true when the reply was sent (the box then clears); `attachment`: the file uploaded for it. */
  onSend: (text: string, attachment?: { uploadId: string }) => Promise<boolean>;
}

export function ReplyComposer({ conversationId, open, sending, onSend }: ReplyComposerProps) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState('');
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [attachError, setAttachError] = useState('');
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const fileRef = useRef<HTMLInputElement | null>(null);
  const uploadRef = useRef<AbortController | null>(null);
  const shortcut = useSavedReplyShortcut({ draft, setDraft, input: () => inputRef.current, enabled: open && !sending });

  // An upload still going when the conversation closes is dropped.
  useEffect(() => () => uploadRef.current?.abort(), []);

  const removeAttachment = () => {
    uploadRef.current?.abort();
    uploadRef.current = null;
    setAttachment(null);
    setAttachError('');
  };

  const attach = async (file: File) => {
    removeAttachment();
    const mimeType = attachmentType(file);
    const kind = attachmentKindOf(mimeType);
    // Said before anything is uploaded, in the server's own words.
    if (!kind) return setAttachError(translateMessage(mediaMessages.attachmentTypeInvalid));
    if (file.size < 1 || file.size > MEDIA_LIMITS.attachmentMaxBytes[kind]) return setAttachError(translateMessage(mediaMessages.attachmentTooLarge));
    const controller = new AbortController();
    uploadRef.current = controller;
    const update = (patch: Partial<Attachment>) => setAttachment((current) => (current?.file === file ? { ...current, ...patch } : current));
    setAttachment({ file, kind, status: 'uploading', loaded: 0 });
    try {
      const ticket = await conversationsApi.requestAttachment(conversationId, { fileName: file.name, mimeType, size: file.size });
      if (controller.signal.aborted) return;
      await postFileToTicket(ticket, file, (loaded) => update({ loaded }), controller.signal);
      update({ status: 'ready', uploadId: ticket.uploadId, loaded: file.size });
    } catch (err) {
      if (controller.signal.aborted) return;
      update({ status: 'failed' });
      setAttachError(errorMessage(err, t('conversations.attachment.uploadFailed')));
    }
  };

  const ready = attachment?.status === 'ready' && attachment.uploadId ? { uploadId: attachment.uploadId } : undefined;
  // A file being uploaded, or one that failed, holds the reply back (it would go without it).
  const blocked = attachment !== null && !ready;
  const canSend = open && !sending && !blocked && (draft.trim() !== '' || ready !== undefined);

  const send = async () => {
    const text = draft.trim();
    if (!canSend) return;
    if (await onSend(text, ready)) {
      setDraft('');
      setAttachment(null);
      setAttachError('');
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (shortcut.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  const percent = attachment ? Math.round((100 * attachment.loaded) / Math.max(1, attachment.file.size)) : 0;

  return (
    <Stack spacing={1}>
      {attachment && (
        <Box sx={{ minWidth: 0 }} data-testid="reply-attachment">
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
            <Chip
              icon={attachment.kind === 'image' ? <ImageOutlined /> : <InsertDriveFileOutlined />}
              label={`${attachment.file.name} · ${formatBytes(attachment.file.size, i18n.language)}`}
              color={attachment.status === 'failed' ? 'error' : 'default'}
              variant="outlined"
              sx={{ maxWidth: '100%', minWidth: 0 }}
            />
            <Tooltip title={t('conversations.attachment.remove')}>
              <IconButton size="small" aria-label={t('conversations.attachment.remove')} onClick={removeAttachment} disabled={sending}>
                <Close fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          {attachment.status === 'uploading' && (
            <LinearProgress
              variant="determinate"
              value={percent}
              aria-label={t('conversations.attachment.uploading', { name: attachment.file.name })}
              sx={{ mt: 0.5, maxWidth: 320 }}
            />
          )}
        </Box>
      )}
      {attachError && (
        <Typography variant="caption" color="error.main" role="alert" data-testid="reply-attachment-error">
          {attachError}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <input
          ref={fileRef}
          type="file"
          hidden
          accept={ACCEPT}
          data-testid="reply-attachment-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            // The same file can be chosen again after it was removed.
            e.target.value = '';
            if (file) void attach(file);
          }}
        />
        <Tooltip title={t('conversations.attachment.attach')}>
          <span>
            <IconButton aria-label={t('conversations.attachment.attach')} onClick={() => fileRef.current?.click()} disabled={!open || sending} sx={{ mt: '2px' }}>
              <AttachFile />
            </IconButton>
          </span>
        </Tooltip>
        <Box sx={{ position: 'relative', flex: 1, minWidth: 0 }}>
          <SavedReplyPicker shortcut={shortcut} />
          <TextField
            multiline
            maxRows={4}
            size="small"
            fullWidth
            label={attachment ? t('conversations.attachment.caption') : t('conversations.modal.reply')}
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
            // A file's caption is shorter than a text reply (Meta's limit).
            slotProps={{ htmlInput: { maxLength: attachment ? MEDIA_LIMITS.captionChars : REPLY_MAX, readOnly: sending, ...shortcut.inputAria } }}
          />
        </Box>
        <Button variant="contained" endIcon={<Send />} onClick={() => void send()} disabled={!canSend} sx={{ flex: 'none', mt: '2px' }}>
          {sending ? t('conversations.modal.sending') : t('conversations.modal.send')}
        </Button>
      </Stack>
    </Stack>
  );
}
