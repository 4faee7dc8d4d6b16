/**
 * The conversation detail modal (SPEC §2 Conversations): the contact header with 'Open WhatsApp'
 * (wa.me link, SPEC §5 prefixing) and 'View contact' or 'Search in Contacts'; the manage panel on
 * the left, the messages and the reply composer on the right; an error banner when an action fails.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import Close from '@mui/icons-material/Close';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Search from '@mui/icons-material/Search';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { Conversation, ConversationStatus } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { useToast } from '../../shared/useToast';
import { translateMessage } from '../../i18n';
import { formatPhone, whatsappLink } from '../../shared/phone';
import { contactLabel } from './ConversationCard';
import { profileNameLine, usernameOnly } from './format';
import { ManagePanel } from './ManagePanel';
import { MessagesPanel } from './MessagesPanel';
import { TakeoverBar } from './inbox/TakeoverBar';
import { NoAnswerBar } from './waiting/NoAnswer';
import { useConversation, useDeleteConversation, useEscalateConversation, useReplyToConversation, useUpdateConversation } from './queries';
import { RetryAlert } from '../../shared/RetryAlert';

interface ConversationModalProps {
  id: string;
  open: boolean;
  now: number;
  onClose: () => void;
  onExited: () => void;
}

interface ActionError {
  title: string;
  detail: string;
}

/** The spec's text as the banner's title, the server's reason (translated) under it. */
function actionError(title: string, err: unknown): ActionError {
  const detail = err instanceof ApiError && err.serverMessage ? translateMessage(err.serverMessage) : '';
  return { title, detail: detail === title ? '' : detail };
}

function ContactHeader({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const username = usernameOnly(conversation);
  const name = contactLabel(conversation) || (username ? t('conversations.card.whatsappUser') : t('conversations.card.unknownContact'));
  // No number for a username customer (a business-scoped id is no phone): no "Open WhatsApp" either.
  const phone = conversation.contact?.phoneNumber || (/^\d+$/.test(conversation.customerWaId ?? '') ? `+${conversation.customerWaId}` : '');
  const wa = whatsappLink(phone);
  const contactId = conversation.contact?._id;
  const profile = profileNameLine(conversation);
  const search = conversation.contact?.name?.trim() || conversation.contact?.phoneNumber || conversation.customerWaId || '';
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', pr: 5 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Avatar sx={{ bgcolor: 'success.main' }} aria-hidden>
          {name.charAt(0).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2" noWrap>
            {name}
          </Typography>
          {phone ? (
            <Typography variant="body2" color="text.secondary" noWrap>
              {formatPhone(phone)}
            </Typography>
          ) : (
            username &&
            name !== t('conversations.card.whatsappUser') && (
              <Typography variant="body2" color="text.secondary" noWrap data-testid="conversation-whatsapp-user">
                {t('conversations.card.whatsappUser')}
              </Typography>
            )
          )}
          {profile && (
            <Typography variant="caption" color="text.secondary" noWrap component="p" data-testid="conversation-profile-name">
              {t('conversations.card.profileName', { name: profile })}
            </Typography>
          )}
        </Box>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ flex: 'none' }}>
        {wa && (
          <Button size="small" variant="outlined" color="success" startIcon={<WhatsApp />} href={wa} target="_blank" rel="noopener noreferrer">
            {t('conversations.modal.openWhatsApp')}
          </Button>
        )}
        {contactId ? (
          <Button size="small" variant="outlined" startIcon={<PersonOutline />} component={RouterLink} to={`/contacts/${encodeURIComponent(contactId)}`}>
            {t('conversations.modal.viewContact')}
          </Button>
        ) : (
          <Button
            size="small"
            variant="outlined"
            startIcon={<Search />}
            component={RouterLink}
            to={`/contacts?${new URLSearchParams({ search })}`}
          >
            {t('conversations.modal.searchContacts')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

export function ConversationModal({ id, open, now, onClose, onExited }: ConversationModalProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('md'));
  const detail = useConversation(id);
  const update = useUpdateConversation(id);
  const escalate = useEscalateConversation(id);
  const remove = useDeleteConversation(id);
  const reply = useReplyToConversation(id);
  const [error, setError] = useState<ActionError | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const conversation = detail.data?.conversation;
  const titleName = conversation
    ? contactLabel(conversation) || (usernameOnly(conversation) ? t('conversations.card.whatsappUser') : t('conversations.card.unknownContact'))
    : '';

  const run = async (action: () => Promise<unknown>, failedText: string, success?: string): Promise<boolean> => {
    setError(null);
    try {
      await action();
      if (success) toast.success(success);
      return true;
    } catch (err) {
      setError(actionError(failedText, err));
      return false;
    }
  };

  const onUpdate = (input: { status: ConversationStatus; notes: string }) =>
    run(() => update.mutateAsync(input), t('conversations.errors.updateFailed'), t('conversations.modal.updated'));
  const onEscalate = (reason: string) =>
    run(() => escalate.mutateAsync(reason), t('conversations.errors.escalateFailed'), t('conversations.modal.escalated'));
  const onSend = (text: string) => run(() => reply.mutateAsync(text), t('conversations.errors.replyFailed'));
  const onConfirmDelete = async () => {
    if (await run(() => remove.mutateAsync(), t('conversations.errors.deleteFailed'), t('conversations.modal.deleted'))) {
      setConfirmDelete(false);
      onClose();
    } else {
      setConfirmDelete(false);
    }
  };

  let body;
  if (detail.isPending) {
    body = (
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, gap: 3 }}>
        <Skeleton variant="rounded" height={360} />
        <Skeleton variant="rounded" height={480} />
      </Box>
    );
  } else if (!conversation) {
    body = (
      <RetryAlert retryLabel={t('conversations.modal.retry')} onRetry={() => void detail.refetch()}>
        {t('conversations.errors.detailFailed')}
      </RetryAlert>
    );
  } else {
    body = (
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, gap: 3 }}>
        <ManagePanel
          conversation={conversation}
          updating={update.isPending}
          escalating={escalate.isPending}
          deleting={remove.isPending}
          onUpdate={onUpdate}
          onEscalate={onEscalate}
          onDelete={() => setConfirmDelete(true)}
        />
        <MessagesPanel conversation={conversation} messages={detail.data?.messages ?? []} now={now} sending={reply.isPending} onSend={onSend} />
      </Box>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="lg"
      fullScreen={fullScreen}
      aria-label={titleName ? t('conversations.modal.title', { name: titleName }) : t('conversations.title')}
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle component="div" sx={{ pb: 1.5 }}>
        {conversation ? <ContactHeader conversation={conversation} /> : <Skeleton width={240} height={40} />}
        {conversation && <TakeoverBar conversation={conversation} />}
        <IconButton aria-label={t('conversations.modal.close')} onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {error && (
          <Alert severity="error" onClose={() => setError(null)} sx={{ mb: 2 }} data-testid="conversation-error">
            <AlertTitle sx={{ mb: error.detail ? 0.5 : 0 }}>{error.title}</AlertTitle>
            {error.detail}
          </Alert>
        )}
        {conversation && <NoAnswerBar conversation={conversation} />}
        {detail.isError && conversation && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t('conversations.errors.detailFailed')}
          </Alert>
        )}
        {body}
      </DialogContent>
      <ConfirmDialog
        open={confirmDelete}
        title={t('conversations.modal.deleteTitle')}
        body={t('conversations.modal.deleteBody')}
        subject={titleName}
        confirmLabel={t('conversations.modal.delete')}
        pendingLabel={t('conversations.modal.deleting')}
        pending={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void onConfirmDelete()}
      />
    </Dialog>
  );
}
