/** Add or edit one saved reply: title and text (savedReplyRequest's rules, checked before the call; the server's 409/400 shown on the field). */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SAVED_REPLY_LIMITS, savedReplyMessages, savedReplyRequest, type SavedReply } from '@agentdesk/functions/contract';
import { serverMessageOf } from '../../../api/client';
import { FormDialogActions } from '../../../shared/FormDialogActions';
import { useToast } from '../../../shared/useToast';
import { savedRepliesApi, savedReplyQueryKeys } from './api';
import { translateSavedReplyText } from './messages';

interface SavedReplyFormDialogProps {
  open: boolean;
  /** The reply being edited; none to add one. */
  reply: SavedReply | null;
  onClose: () => void;
}

type Errors = { title?: string; text?: string; form?: string };

const TITLE_MESSAGES: string[] = [savedReplyMessages.titleRequired, savedReplyMessages.titleTooLong, savedReplyMessages.duplicateTitle];
const TEXT_MESSAGES: string[] = [savedReplyMessages.textRequired, savedReplyMessages.textTooLong];

/** Which field a message is about (the form itself for the rest: the cap, a failure). */
function errorsFor(message: string): Errors {
  const text = translateSavedReplyText(message);
  if (TITLE_MESSAGES.includes(message)) return { title: text };
  if (TEXT_MESSAGES.includes(message)) return { text };
  return { form: text };
}

export function SavedReplyFormDialog({ open, reply, onClose }: SavedReplyFormDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(reply?.title ?? '');
  const [text, setText] = useState(reply?.text ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: (input: { title: string; text: string }) => (reply ? savedRepliesApi.update(reply._id, input) : savedRepliesApi.create(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReplyQueryKeys.all }),
  });

  const close = () => {
    if (!save.isPending) onClose();
  };
  const submit = async () => {
    const parsed = savedReplyRequest.safeParse({ title, text });
    if (!parsed.success) {
      setErrors(Object.assign({}, ...parsed.error.issues.map((issue) => errorsFor(issue.message))) as Errors);
      return;
    }
    try {
      const env = await save.mutateAsync(parsed.data);
      toast.success(translateSavedReplyText(env.message ?? (reply ? savedReplyMessages.updated : savedReplyMessages.created)));
      onClose();
    } catch (err) {
      const server = serverMessageOf(err);
      setErrors(server ? errorsFor(server) : { form: t('savedReplies.form.failed') });
    }
  };

  const formId = 'saved-reply-form';
  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby="saved-reply-form-title">
      <DialogTitle id="saved-reply-form-title">{reply ? t('savedReplies.form.editTitle') : t('savedReplies.form.addTitle')}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id={formId}
          noValidate
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {errors.form && (
            <Alert severity="error" role="alert">
              {errors.form}
            </Alert>
          )}
          <TextField
            label={t('savedReplies.form.title')}
            required
            fullWidth
            autoFocus
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              setErrors((prev) => ({ ...prev, title: undefined, form: undefined }));
            }}
            error={Boolean(errors.title)}
            helperText={errors.title ?? t('savedReplies.form.titleHint')}
            slotProps={{ htmlInput: { maxLength: SAVED_REPLY_LIMITS.title } }}
          />
          <TextField
            label={t('savedReplies.form.text')}
            required
            fullWidth
            multiline
            minRows={4}
            maxRows={12}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setErrors((prev) => ({ ...prev, text: undefined, form: undefined }));
            }}
            error={Boolean(errors.text)}
            helperText={errors.text ?? t('savedReplies.form.characters', { count: text.length, max: SAVED_REPLY_LIMITS.text })}
            slotProps={{ htmlInput: { maxLength: SAVED_REPLY_LIMITS.text } }}
          />
        </Stack>
      </DialogContent>
      <FormDialogActions
        cancelLabel={t('savedReplies.form.cancel')}
        submitLabel={t('savedReplies.form.save')}
        pendingLabel={t('savedReplies.form.saving')}
        pending={save.isPending}
        onCancel={close}
        form={formId}
      />
    </Dialog>
  );
}
