/** The create modal (SPEC §2 Agents): only the name ('Name is required', 'Name must be 20 characters or less'). */
import DialogContentText from '@mui/material/DialogContentText';
import TextField from '@mui/material/TextField';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type * as z from 'zod/mini';
import { AGENT_LIMITS, createAgentRequest, type Agent } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { useToast } from '../../shared/useToast';
import { apiErrorText, contractFieldProps } from '../../shared/apiTexts';
import { useCreateAgent } from './queries';
import { FormDialog } from '../../shared/FormDialog';

type CreateInput = z.input<typeof createAgentRequest>;
type CreateValues = z.output<typeof createAgentRequest>;

interface CreateAgentDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated?: (agent: Agent) => void;
}

export function CreateAgentDialog({ open, onClose, onCreated }: CreateAgentDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const create = useCreateAgent();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateInput, unknown, CreateValues>({ resolver: zodResolver(createAgentRequest), defaultValues: { name: '' } });
  const name = useWatch({ control, name: 'name' }) ?? '';

  const close = () => {
    if (isSubmitting) return;
    reset({ name: '' });
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const agent = await create.mutateAsync(values.name);
      toast.success(t('agents.toasts.created'));
      reset({ name: '' });
      onClose();
      onCreated?.(agent);
    } catch (err) {
      const message = apiErrorText(err, t('agents.toasts.saveFailed'));
      toast.error(message);
      if (err instanceof ApiError && err.status === 400) setError('name', { message });
    }
  });

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={t('agents.create.title')}
      titleId="create-agent-title"
      maxWidth="xs"
      onSubmit={onSubmit}
      cancelLabel={t('common.cancel')}
      submitLabel={t('agents.create.submit')}
      pendingLabel={t('agents.create.creating')}
      pending={isSubmitting}
    >
      <DialogContentText sx={{ mb: 2 }}>{t('agents.create.body')}</DialogContentText>
      <TextField
        label={t('agents.fields.name')}
        placeholder={t('agents.create.namePlaceholder')}
        autoComplete="off"
        autoFocus
        required
        {...register('name')}
        {...contractFieldProps(errors.name, t('agents.counter', { count: name.length, max: AGENT_LIMITS.name }))}
      />
    </FormDialog>
  );
}
