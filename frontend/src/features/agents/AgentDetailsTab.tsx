/**
 * The Agent Details tab (SPEC §2 Agent detail, §4, §5): the view of every field and, in edit
 * mode, the form (name, description, objective, instructions, knowledge base, priority) with
 * character counters. Each text field has an AI-improve action (idle → loading → improved; the
 * 'AI improved' mark clears when the field is edited) that needs the ChatGPT integration and some
 * text. Save sends PUT /api/agents/{id}; Cancel drops the changes.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AutoAwesome from '@mui/icons-material/AutoAwesome';
import CheckCircle from '@mui/icons-material/CheckCircle';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AGENT_LIMITS, agentMessages, type Agent } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { integrationsApi } from '../../api/integrations';
import { DetailRow, DetailSection } from '../../shared/DetailSection';
import { useToast } from '../../shared/useToast';
import { apiErrorText, contractFieldProps, knownErrorText, translateContractText } from '../../shared/apiTexts';
import {
  agentDetailsForm,
  askInput,
  FIELD_LIMITS,
  formFromAgent,
  improveBlocker,
  IMPROVABLE_FIELDS,
  updateFromForm,
  type AgentFormInput,
  type AgentFormValues,
  type ImprovableField,
  type ImproveState,
} from './detailsForm';
import { EnabledChip } from './EnabledChip';
import { useUpdateAgent } from './queries';
import { formatDate } from '../../shared/intl';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DetailRow label={label} labelWidth={140}>
      {children}
    </DetailRow>
  );
}

function LongText({ text }: { text: string }) {
  const { t } = useTranslation();
  return text ? (
    <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{text}</Typography>
  ) : (
    <Typography color="text.secondary" sx={{ fontStyle: 'italic' }}>
      {t('agents.details.notSet')}
    </Typography>
  );
}

const TEXT_SECTIONS: readonly ImprovableField[] = ['description', 'objective', 'instructions', 'knowledgeBase'];

function AgentView({ agent, onEdit }: { agent: Agent; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const formatDateTime = (iso: string | undefined) => formatDate(i18n.language, iso) ?? '';
  return (
    <Stack spacing={3} data-testid="agent-details-view">
      <DetailSection
        title={t('agents.details.basicInfo')}
        action={
          <Button variant="outlined" size="small" startIcon={<EditOutlined />} onClick={onEdit}>
            {t('agents.details.edit')}
          </Button>
        }
      >
        <Row label={t('agents.fields.name')}>{agent.name}</Row>
        <Divider />
        <Row label={t('agents.fields.priority')}>{agent.priority ?? 0}</Row>
        <Divider />
        <Row label={t('agents.details.status')}>
          <EnabledChip enabled={agent.enabled} />
        </Row>
        <Divider />
        <Row label={t('agents.details.created')}>{formatDateTime(agent.createdAt)}</Row>
        <Divider />
        <Row label={t('agents.details.updated')}>{formatDateTime(agent.updatedAt)}</Row>
      </DetailSection>
      {TEXT_SECTIONS.map((field) => (
        <DetailSection key={field} title={t(`agents.fields.${field}`)}>
          <LongText text={agent[field] ?? ''} />
        </DetailSection>
      ))}
    </Stack>
  );
}

function AiImproveButton({ state, onClick }: { state: ImproveState; onClick: () => void }) {
  const { t } = useTranslation();
  const loading = state === 'loading';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {state === 'improved' && (
        <Chip size="small" color="success" variant="outlined" icon={<CheckCircle />} label={t('agents.details.improved')} data-testid="ai-improved" />
      )}
      <Tooltip title={t('agents.details.improveHint')}>
        <span>
          <Button
            size="small"
            variant="text"
            onClick={onClick}
            disabled={loading}
            aria-busy={loading}
            startIcon={loading ? <CircularProgress size={14} color="inherit" /> : <AutoAwesome fontSize="small" />}
          >
            {loading ? t('agents.details.improving') : t('agents.details.improve')}
          </Button>
        </span>
      </Tooltip>
    </Stack>
  );
}

/** Which form field a server validation message belongs to. */
const FIELD_BY_MESSAGE = new Map<string, FieldPath<AgentFormInput>>([
  [agentMessages.nameRequired, 'name'],
  [agentMessages.nameTooLong, 'name'],
  [agentMessages.descriptionRequired, 'description'],
  [agentMessages.descriptionTooLong, 'description'],
  [agentMessages.objectiveRequired, 'objective'],
  [agentMessages.objectiveTooLong, 'objective'],
  [agentMessages.instructionsTooLong, 'instructions'],
  [agentMessages.knowledgeBaseTooLong, 'knowledgeBase'],
  [agentMessages.priorityRange, 'priority'],
]);

const IDLE: Record<ImprovableField, ImproveState> = { description: 'idle', objective: 'idle', instructions: 'idle', knowledgeBase: 'idle' };

const FORM_ID = 'agent-details-form';

function AgentEditForm({ agent, integrationActive, onDone }: { agent: Agent; integrationActive: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const update = useUpdateAgent(agent._id);
  const [improve, setImprove] = useState(IDLE);
  // An answer arriving after Save or Cancel closed the form is dropped.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AgentFormInput, unknown, AgentFormValues>({ resolver: zodResolver(agentDetailsForm), defaultValues: formFromAgent(agent) });
  const values = useWatch({ control });

  const setFieldState = (field: ImprovableField, state: ImproveState) => {
    if (mounted.current) setImprove((prev) => ({ ...prev, [field]: state }));
  };

  const runImprove = async (field: ImprovableField) => {
    const text = getValues(field) ?? '';
    const blocker = improveBlocker(text, integrationActive);
    if (blocker) {
      toast.error(translateContractText(blocker));
      return;
    }
    setFieldState(field, 'loading');
    try {
      const { response } = await integrationsApi.ask(askInput(field, text));
      if (!mounted.current) return;
      setValue(field, response, { shouldDirty: true, shouldValidate: true });
      setFieldState(field, 'improved');
    } catch (err) {
      setFieldState(field, 'idle');
      toast.error(knownErrorText(err, t('agents.details.improveFailed')));
    }
  };

  const onSubmit = handleSubmit(async (formValues) => {
    try {
      await update.mutateAsync(updateFromForm(formValues));
      toast.success(t('agents.toasts.updated'));
      onDone();
    } catch (err) {
      toast.error(apiErrorText(err, t('agents.toasts.saveFailed')));
      const field = err instanceof ApiError && err.serverMessage ? FIELD_BY_MESSAGE.get(err.serverMessage) : undefined;
      if (field && err instanceof ApiError) setError(field, { message: err.serverMessage });
    }
  });

  const cancel = () => onDone();

  const counter = (field: keyof typeof FIELD_LIMITS) =>
    t('agents.counter', { count: String(values[field] ?? '').length, max: FIELD_LIMITS[field] });

  const textField = (field: ImprovableField, minRows: number) => {
    const registration = register(field);
    const state = improve[field];
    const help = contractFieldProps(errors[field], counter(field));
    return (
      <Box key={field}>
        <TextField
          label={t(`agents.fields.${field}`)}
          placeholder={t(`agents.placeholders.${field}`)}
          multiline
          minRows={minRows}
          maxRows={field === 'knowledgeBase' ? 24 : 12}
          required={field === 'description' || field === 'objective'}
          {...registration}
          onChange={(e) => {
            // SPEC §4: the improved mark clears on further editing.
            if (improve[field] === 'improved') setFieldState(field, 'idle');
            return registration.onChange(e);
          }}
          slotProps={{ input: { readOnly: state === 'loading' }, htmlInput: { 'aria-describedby': `${field}-help` } }}
          error={Boolean(help.error)}
        />
        <Stack direction="row" spacing={1} useFlexGap sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mt: 0.25 }}>
          <FormHelperText id={`${field}-help`} error={help.error} sx={{ mx: 1.75 }}>
            {help.helperText}
          </FormHelperText>
          <Box sx={{ flexShrink: 0 }} data-testid={`ai-improve-${field}`}>
            <AiImproveButton state={state} onClick={() => void runImprove(field)} />
          </Box>
        </Stack>
      </Box>
    );
  };

  const busy = isSubmitting || Object.values(improve).includes('loading');

  return (
    <Card component="form" id={FORM_ID} noValidate onSubmit={onSubmit} data-testid="agent-details-form">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2.5 }}>
          {t('agents.details.editTitle')}
        </Typography>
        <Stack spacing={2.5}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
            <TextField
              label={t('agents.fields.name')}
              autoComplete="off"
              required
              {...register('name')}
              {...contractFieldProps(errors.name, counter('name'))}
            />
            <TextField
              label={t('agents.fields.priority')}
              type="number"
              sx={{ maxWidth: { sm: 220 } }}
              slotProps={{ htmlInput: { min: AGENT_LIMITS.priorityMin, max: AGENT_LIMITS.priorityMax, step: 1 } }}
              {...register('priority')}
              {...contractFieldProps(errors.priority, t('agents.details.priorityHint'))}
            />
          </Stack>
          {(Object.keys(IMPROVABLE_FIELDS) as ImprovableField[]).map((field) => textField(field, field === 'knowledgeBase' ? 6 : 3))}
          {!integrationActive && (
            <Typography variant="body2" color="text.secondary">
              {t('agents.details.improveNeedsIntegration')}
            </Typography>
          )}
        </Stack>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 3 }}>
          <Button variant="outlined" onClick={cancel} disabled={isSubmitting}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {isSubmitting ? t('agents.details.saving') : t('agents.details.save')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

interface AgentDetailsTabProps {
  agent: Agent;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
  integrationActive: boolean;
}

export function AgentDetailsTab({ agent, editing, onEditingChange, integrationActive }: AgentDetailsTabProps) {
  // The form mounts with the agent as it is when editing starts (view ↔ edit, SPEC §4).
  return editing ? (
    <AgentEditForm agent={agent} integrationActive={integrationActive} onDone={() => onEditingChange(false)} />
  ) : (
    <AgentView agent={agent} onEdit={() => onEditingChange(true)} />
  );
}
