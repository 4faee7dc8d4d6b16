/** The create modal (SPEC §2 Agents): only the name ('Name is required', 'Name must be 20 characters or less'). */
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
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
import { FormDialogActions } from '../../shared/FormDialogActions';

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
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="create-agent-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="create-agent-title">{t('agents.create.title')}</DialogTitle>
        <DialogContent>
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
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('common.cancel')}
          submitLabel={t('agents.create.submit')}
          pendingLabel={t('agents.create.creating')}
          pending={isSubmitting}
          onCancel={close}
        />
      </form>
    </Dialog>
  );
}
