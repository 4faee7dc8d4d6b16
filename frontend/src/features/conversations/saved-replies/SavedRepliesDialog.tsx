/**
 * Saved replies (issue 17), opened from the conversations page: the list (by title), add, edit,
 * delete with a confirmation, an empty state and load errors with Retry. The reply box of a
 * conversation inserts them with `/` (SavedReplyPicker).
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SAVED_REPLY_LIMITS, savedReplyMessages, type SavedReply } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { RetryAlert } from '../../../shared/RetryAlert';
import { useToast } from '../../../shared/useToast';
import './i18n';
import { savedRepliesApi, savedReplyQueryKeys, useSavedReplies } from './api';
import { savedReplyErrorText, translateSavedReplyText } from './messages';
import { SavedReplyFormDialog } from './SavedReplyFormDialog';

interface SavedRepliesDialogProps {
  open: boolean;
  onClose: () => void;
}

export function SavedRepliesDialog({ open, onClose }: SavedRepliesDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const replies = useSavedReplies(open);
  // undefined: no form; null: adding; a reply: editing it.
  const [editing, setEditing] = useState<SavedReply | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<SavedReply | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => savedRepliesApi.remove(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedReplyQueryKeys.all }),
  });

  const list = replies.data ?? [];
  const full = list.length >= SAVED_REPLY_LIMITS.perUser;
  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const env = await remove.mutateAsync(deleting._id);
      toast.success(translateSavedReplyText(env.message ?? savedReplyMessages.deleted));
    } catch (err) {
      toast.error(savedReplyErrorText(err, t('savedReplies.deleteDialog.failed')));
    }
    setDeleting(null);
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="saved-replies-title">
        <DialogTitle id="saved-replies-title">{t('savedReplies.title')}</DialogTitle>
        <DialogContent dividers>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 1.5 }}>
            <DialogContentText variant="body2">{t('savedReplies.intro')}</DialogContentText>
            <Tooltip title={full ? translateSavedReplyText(savedReplyMessages.tooMany) : ''}>
              <span>
                <Button variant="contained" startIcon={<Add />} onClick={() => setEditing(null)} disabled={full || replies.isPending} sx={{ flex: 'none', whiteSpace: 'nowrap' }}>
                  {t('savedReplies.add')}
                </Button>
              </span>
            </Tooltip>
          </Stack>
          {replies.isPending ? (
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 4, justifyContent: 'center' }} role="status">
              <CircularProgress size={20} />
              <Typography color="text.secondary">{t('savedReplies.loading')}</Typography>
            </Stack>
          ) : replies.isError ? (
            <RetryAlert retryLabel={t('savedReplies.retry')} onRetry={() => void replies.refetch()} retrying={replies.isFetching}>
              {t('savedReplies.loadFailed')}
            </RetryAlert>
          ) : list.length === 0 ? (
            <Box sx={{ textAlign: 'center', py: 4 }} data-testid="saved-replies-empty">
              <Typography variant="subtitle1" component="p">
                {t('savedReplies.empty')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('savedReplies.emptyHint')}
              </Typography>
            </Box>
          ) : (
            <>
              <Typography variant="caption" color="text.secondary" data-testid="saved-replies-count">
                {t('savedReplies.count', { count: list.length, max: SAVED_REPLY_LIMITS.perUser })}
              </Typography>
              <List aria-label={t('savedReplies.title')} data-testid="saved-replies-list">
                {list.map((reply) => (
                  <ListItem
                    key={reply._id}
                    divider
                    data-testid="saved-reply"
                    secondaryAction={
                      <Stack direction="row" spacing={0.5}>
                        <Tooltip title={t('savedReplies.edit')}>
                          <IconButton aria-label={t('savedReplies.editLabel', { title: reply.title })} onClick={() => setEditing(reply)}>
                            <EditOutlined />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title={t('savedReplies.delete')}>
                          <IconButton aria-label={t('savedReplies.deleteLabel', { title: reply.title })} onClick={() => setDeleting(reply)}>
                            <DeleteOutline />
                          </IconButton>
                        </Tooltip>
                      </Stack>
                    }
                    sx={{ pr: 12 }}
                  >
                    <ListItemText
                      primary={reply.title}
                      secondary={reply.text}
                      slotProps={{ secondary: { sx: { whiteSpace: 'pre-line', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' } } }}
                    />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('savedReplies.close')}</Button>
        </DialogActions>
      </Dialog>

      {editing !== undefined && <SavedReplyFormDialog key={editing?._id ?? 'new'} open reply={editing} onClose={() => setEditing(undefined)} />}

      <ConfirmDialog
        open={deleting !== null}
        title={t('savedReplies.deleteDialog.title')}
        body={t('savedReplies.deleteDialog.body')}
        subject={deleting?.title}
        confirmLabel={t('savedReplies.deleteDialog.confirm')}
        pendingLabel={t('savedReplies.deleteDialog.pending')}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
