/**
 * The conversation detail modal (SPEC §2 Conversations): the contact header with 'Open WhatsApp'
 * (wa.me link, SPEC §5 prefixing) and 'View contact' or 'Search in Contacts'; the manage panel on
 * the left, the messages and the reply composer on the right, each scrolling on its own so the reply
 * box is always in view; an error banner when an action fails. On a phone (issue 29) it fills the
 * screen like a chat app: a back arrow, the customer and who answers on top, then the 'Messages' tab
 * (the list, the reply box at the bottom) and the 'Details' tab (contact links, assignment, status,
 * notes, escalation, delete).
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
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ArrowBack from '@mui/icons-material/ArrowBack';
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
import { AssigneeLine, TakeoverBar } from './inbox/TakeoverBar';
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

type ModalTab = 'messages' | 'details';

interface ActionError {
  title: string;
  detail: string;
}

/** The spec's text as the banner's title, the server's reason (translated) under it. */
function actionError(title: string, err: unknown): ActionError {
  const detail = err instanceof ApiError && err.serverMessage ? translateMessage(err.serverMessage) : '';
  return { title, detail: detail === title ? '' : detail };
}

/** The customer as the conversation knows them: number (none for a username customer) and the contact-page search. */
function contactOf(conversation: Conversation) {
  // No number for a username customer (a business-scoped id is no phone): no "Open WhatsApp" either.
  const phone = conversation.contact?.phoneNumber || (/^\d+$/.test(conversation.customerWaId ?? '') ? `+${conversation.customerWaId}` : '');
  const search = conversation.contact?.name?.trim() || conversation.contact?.phoneNumber || conversation.customerWaId || '';
  return { phone, search, contactId: conversation.contact?._id };
}

/** Avatar, name, number and the WhatsApp profile name. */
function ContactIdentity({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const username = usernameOnly(conversation);
  const name = contactLabel(conversation) || (username ? t('conversations.card.whatsappUser') : t('conversations.card.unknownContact'));
  const { phone } = contactOf(conversation);
  const profile = profileNameLine(conversation);
  return (
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
  );
}

/** 'Open WhatsApp' (wa.me link, SPEC §5 prefixing) and 'View contact' or 'Search in Contacts'. */
function ContactActions({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const { phone, search, contactId } = contactOf(conversation);
  const wa = whatsappLink(phone);
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flex: 'none', flexWrap: 'wrap' }}>
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
        <Button size="small" variant="outlined" startIcon={<Search />} component={RouterLink} to={`/contacts?${new URLSearchParams({ search })}`}>
          {t('conversations.modal.searchContacts')}
        </Button>
      )}
    </Stack>
  );
}

function ContactHeader({ conversation }: { conversation: Conversation }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', pr: 5 }}>
      <ContactIdentity conversation={conversation} />
      <ContactActions conversation={conversation} />
    </Stack>
  );
}

export function ConversationModal({ id, open, now, onClose, onExited }: ConversationModalProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const [tab, setTab] = useState<ModalTab>('messages');
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
  const onSend = (text: string, attachment?: { uploadId: string }) => run(() => reply.mutateAsync({ text, ...(attachment ? { attachment } : {}) }), t('conversations.errors.replyFailed'));
  const onConfirmDelete = async () => {
    if (await run(() => remove.mutateAsync(), t('conversations.errors.deleteFailed'), t('conversations.modal.deleted'))) {
      setConfirmDelete(false);
      onClose();
    } else {
      setConfirmDelete(false);
    }
  };

  // On a phone the conversation opens on its messages, the details behind their tab (issue 29).
  const tabProps = (value: ModalTab) => ({ id: `conversation-tab-${value}`, 'aria-controls': `conversation-tabpanel-${value}` });
  const panelProps = (value: ModalTab) => ({ role: 'tabpanel', id: `conversation-tabpanel-${value}`, 'aria-labelledby': `conversation-tab-${value}` });
  const fill = { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } as const;

  let body;
  if (detail.isPending) {
    body = (
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, gap: 3 }}>
        {!phone && <Skeleton variant="rounded" height={360} />}
        <Skeleton variant="rounded" height={phone ? 320 : 480} />
      </Box>
    );
  } else if (!conversation) {
    body = (
      <RetryAlert retryLabel={t('conversations.modal.retry')} onRetry={() => void detail.refetch()}>
        {t('conversations.errors.detailFailed')}
      </RetryAlert>
    );
  } else {
    const manage = (
      <ManagePanel
        conversation={conversation}
        updating={update.isPending}
        escalating={escalate.isPending}
        deleting={remove.isPending}
        onUpdate={onUpdate}
        onEscalate={onEscalate}
        onDelete={() => setConfirmDelete(true)}
      />
    );
    const messages = <MessagesPanel conversation={conversation} messages={detail.data?.messages ?? []} now={now} sending={reply.isPending} onSend={onSend} />;
    if (!phone) {
      // Side by side; each column scrolls on its own so the reply box stays in view.
      body = (
        <Box sx={{ ...fill, display: 'grid', gridTemplateColumns: '5fr 7fr', gridTemplateRows: 'minmax(0, 1fr)', gap: 3 }}>
          <Box sx={{ minHeight: 0, overflowY: 'auto', pr: 1 }}>{manage}</Box>
          {messages}
        </Box>
      );
    } else if (tab === 'messages') {
      body = (
        <Box {...panelProps('messages')} sx={fill}>
          {messages}
        </Box>
      );
    } else {
      body = (
        <Stack {...panelProps('details')} spacing={2.5}>
          <ContactActions conversation={conversation} />
          <AssigneeLine conversation={conversation} />
          {manage}
        </Stack>
      );
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="lg"
      fullScreen={phone}
      // The name goes on the paper, the element with role="dialog" (on the Dialog it lands on the
      // presentation root: the dialog had no name and axe found content outside any landmark).
      slotProps={{
        transition: { onExited },
        paper: { 'aria-label': titleName ? t('conversations.modal.title', { name: titleName }) : t('conversations.title'), sx: { height: { md: 'calc(100% - 64px)' } } },
      }}
    >
      {phone ? (
        <DialogTitle component="div" sx={{ px: 1, pt: 1, pb: 1 }}>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
            <IconButton aria-label={t('conversations.modal.back')} onClick={onClose} sx={{ flex: 'none' }}>
              <ArrowBack />
            </IconButton>
            {conversation ? <ContactIdentity conversation={conversation} /> : <Skeleton width={200} height={40} />}
          </Stack>
          {conversation && <TakeoverBar conversation={conversation} compact />}
        </DialogTitle>
      ) : (
        <DialogTitle component="div" sx={{ pb: 1.5 }}>
          {conversation ? <ContactHeader conversation={conversation} /> : <Skeleton width={240} height={40} />}
          {conversation && <TakeoverBar conversation={conversation} />}
          <IconButton aria-label={t('conversations.modal.close')} onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
            <Close />
          </IconButton>
        </DialogTitle>
      )}
      {phone && conversation && (
        <Tabs value={tab} onChange={(_, value: ModalTab) => setTab(value)} variant="fullWidth" aria-label={t('conversations.modal.sections')} sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 44 }}>
          <Tab value="messages" label={t('conversations.modal.tabs.messages')} {...tabProps('messages')} sx={{ minHeight: 44 }} />
          <Tab value="details" label={t('conversations.modal.tabs.details')} {...tabProps('details')} sx={{ minHeight: 44 }} />
        </Tabs>
      )}
      {/* The message list gives way to what is below it; only if even its smallest height does not fit (a long template form, alerts) does the content scroll. */}
      <DialogContent dividers={!phone} sx={{ ...fill, overflowY: 'auto', px: { xs: 1.5, md: 3 }, py: { xs: 1, md: 2 } }}>
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
