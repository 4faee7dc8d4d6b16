/**
 * The modal's left panel (SPEC §2 Conversations, §5): details, the status select and notes with
 * Update (notes trimmed), the escalation block (hidden when a human is already needed; a reason
 * is required, with a live character count) and delete, which warns that it is permanent.
 */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import PanTool from '@mui/icons-material/PanToolOutlined';
import { useTranslation } from 'react-i18next';
import { CONVERSATION_STATUSES, WHATSAPP_TEXT_LIMITS, type Conversation, type ConversationStatus } from '@agentdesk/functions/contract';
import { DetailRow } from '../../shared/DetailSection';
import { formatPhone } from '../../shared/phone';
import { ESCALATION_REASON_MAX, lastActivity, usernameOnly } from './format';
import { ConversationStatusChip } from './StatusChip';
import { useDateTime } from './useNow';

const LABEL_WIDTH = 130;

interface ManagePanelProps {
  conversation: Conversation;
  updating: boolean;
  escalating: boolean;
  deleting: boolean;
  /** Each resolves true on success. */
  onUpdate: (input: { status: ConversationStatus; notes: string }) => Promise<boolean>;
  onEscalate: (reason: string) => Promise<boolean>;
  onDelete: () => void;
}

interface FormValues {
  status: ConversationStatus;
  notes: string;
}

/** The form follows the server while the user has not changed it (polling, an escalation). */
function useConversationForm(conversation: Conversation) {
  const server: FormValues = { status: conversation.status, notes: conversation.notes ?? '' };
  const [base, setBase] = useState(server);
  const [values, setValues] = useState(server);
  if (base.status !== server.status || base.notes !== server.notes) {
    setBase(server);
    setValues((current) => ({
      status: current.status === base.status ? server.status : current.status,
      notes: current.notes === base.notes ? server.notes : current.notes,
    }));
  }
  const dirty = values.status !== server.status || values.notes.trim() !== server.notes.trim();
  return { values, setValues, dirty };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

export function ManagePanel({ conversation, updating, escalating, deleting, onUpdate, onEscalate, onDelete }: ManagePanelProps) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const { values, setValues, dirty } = useConversationForm(conversation);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState('');
  const agent = conversation.lastAgent;

  const rows: Array<[label: string, value: ReactNode]> = [
    [t('conversations.modal.fields.status'), <ConversationStatusChip key="s" status={conversation.status} />],
    [
      t('conversations.modal.fields.phone'),
      formatPhone(conversation.contact?.phoneNumber) || (usernameOnly(conversation) ? t('conversations.card.whatsappUser') : conversation.customerWaId),
    ],
    [t('conversations.modal.fields.created'), dateTime(conversation.createdAt)],
    [t('conversations.modal.fields.lastMessage'), dateTime(lastActivity(conversation))],
    [t('conversations.modal.fields.lastAgent'), agent ? agent.name : ''],
    [t('conversations.modal.fields.escalated'), dateTime(conversation.escalatedAt)],
    [t('conversations.modal.fields.escalationReason'), conversation.escalationReason],
    [t('conversations.modal.fields.closed'), dateTime(conversation.closedAt)],
  ];

  const submitEscalation = async () => {
    const trimmed = reason.trim();
    if (!trimmed) {
      setReasonError(t('conversations.errors.reasonRequired'));
      return;
    }
    setReasonError('');
    if (await onEscalate(trimmed)) setReason('');
  };

  return (
    <Stack spacing={2.5} divider={<Divider flexItem />} sx={{ minWidth: 0 }}>
      <Section title={t('conversations.modal.details')}>
        {rows
          .filter(([, value]) => value !== '' && value !== null && value !== undefined)
          .map(([label, value]) => (
            <DetailRow key={label} label={label} labelWidth={LABEL_WIDTH}>
              {value}
            </DetailRow>
          ))}
      </Section>

      <Section title={t('conversations.modal.manage')}>
        <Stack spacing={2}>
          <TextField
            select
            size="small"
            label={t('conversations.modal.fields.status')}
            value={values.status}
            onChange={(e) => setValues((v) => ({ ...v, status: e.target.value as ConversationStatus }))}
          >
            {CONVERSATION_STATUSES.map((status) => (
              <MenuItem key={status} value={status}>
                {t(`conversations.status.${status}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            multiline
            minRows={3}
            maxRows={8}
            size="small"
            label={t('conversations.modal.notes')}
            placeholder={t('conversations.modal.notesPlaceholder')}
            value={values.notes}
            onChange={(e) => setValues((v) => ({ ...v, notes: e.target.value }))}
            slotProps={{ htmlInput: { maxLength: WHATSAPP_TEXT_LIMITS.notes } }}
          />
          <Box>
            <Button variant="contained" disabled={updating || !dirty} onClick={() => void onUpdate({ status: values.status, notes: values.notes.trim() })}>
              {updating ? t('conversations.modal.updating') : t('conversations.modal.update')}
            </Button>
          </Box>
        </Stack>
      </Section>

      {conversation.status !== 'requires_human' && (
        <Section title={t('conversations.modal.escalation')}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('conversations.modal.escalationHint')}
          </Typography>
          <Stack spacing={1.5}>
            <TextField
              multiline
              minRows={2}
              size="small"
              label={t('conversations.modal.reason')}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                if (reasonError && e.target.value.trim()) setReasonError('');
              }}
              error={!!reasonError}
              helperText={
                <Stack component="span" direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                  <span>{reasonError}</span>
                  <span data-testid="escalation-reason-count">{t('conversations.modal.reasonCount', { count: reason.length, max: ESCALATION_REASON_MAX })}</span>
                </Stack>
              }
              slotProps={{ htmlInput: { maxLength: ESCALATION_REASON_MAX } }}
            />
            <Box>
              <Button variant="outlined" color="warning" startIcon={<PanTool />} disabled={escalating} onClick={() => void submitEscalation()}>
                {escalating ? t('conversations.modal.escalating') : t('conversations.modal.escalate')}
              </Button>
            </Box>
          </Stack>
        </Section>
      )}

      <Section title={t('conversations.modal.danger')}>
        <Typography variant="body2" color="error.main" sx={{ mb: 1.5 }}>
          {t('conversations.modal.deleteWarning')}
        </Typography>
        <Button variant="outlined" color="error" startIcon={<DeleteOutline />} disabled={deleting} onClick={onDelete}>
          {deleting ? t('conversations.modal.deleting') : t('conversations.modal.delete')}
        </Button>
      </Section>
    </Stack>
  );
}
