/**
 * One question + answer form, for adding or editing a knowledge entry and for answering an
 * unanswered question (the question comes prefilled and stays editable). The contract's schema
 * validates it (300 / 2000 characters, required), with live counters.
 */
import { useEffect, useId } from 'react';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AGENT_LIMITS, knowledgeEntryRequest, type KnowledgeEntryInput } from '@agentdesk/functions/contract';
import { FormDialog } from '../../../../shared/FormDialog';
import { formatNumber } from '../../../../shared/intl';
import { tabMessage } from '../messages';

interface EntryDialogProps {
  open: boolean;
  title: string;
  intro?: string;
  initial: KnowledgeEntryInput;
  submitLabel: string;
  pending: boolean;
  onClose: () => void;
  /** Resolves true when saved (the dialog then closes through the parent). */
  onSave: (input: KnowledgeEntryInput) => Promise<void>;
}

export function EntryDialog({ open, title, intro, initial, submitLabel, pending, onClose, onSave }: EntryDialogProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<KnowledgeEntryInput>({ resolver: zodResolver(knowledgeEntryRequest), defaultValues: initial });

  // A new subject (another entry or question) starts from its own text.
  useEffect(() => {
    if (open) reset(initial);
  }, [open, initial, reset]);

  const question = watch('question') ?? '';
  const answer = watch('answer') ?? '';
  const counter = (count: number, max: number) =>
    t('agentTabs.knowledge.entries.counter', { count: formatNumber(i18n.language, count), max: formatNumber(i18n.language, max) });
  const helper = (message: string | undefined, count: number, max: number) => (
    <Stack component="span" direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
      <span>{message ? tabMessage(message) : ''}</span>
      <span aria-hidden>{counter(count, max)}</span>
    </Stack>
  );

  return (
    <FormDialog
      open={open}
      onClose={pending ? () => undefined : onClose}
      title={title}
      titleId={titleId}
      onSubmit={(e) => void handleSubmit(onSave)(e)}
      cancelLabel={t('agentTabs.common.cancel')}
      submitLabel={submitLabel}
      pendingLabel={t('agentTabs.knowledge.entries.saving')}
      pending={pending}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {intro && (
          <Typography variant="body2" color="text.secondary">
            {intro}
          </Typography>
        )}
        <TextField
          label={t('agentTabs.knowledge.entries.question')}
          fullWidth
          multiline
          maxRows={3}
          autoComplete="off"
          {...register('question')}
          error={Boolean(errors.question) || question.length > AGENT_LIMITS.entryQuestion}
          helperText={helper(errors.question?.message, question.length, AGENT_LIMITS.entryQuestion)}
          slotProps={{ formHelperText: { component: 'div' } }}
        />
        <TextField
          label={t('agentTabs.knowledge.entries.answer')}
          fullWidth
          multiline
          minRows={4}
          maxRows={12}
          autoComplete="off"
          {...register('answer')}
          error={Boolean(errors.answer) || answer.length > AGENT_LIMITS.entryAnswer}
          helperText={helper(errors.answer?.message, answer.length, AGENT_LIMITS.entryAnswer)}
          slotProps={{ formHelperText: { component: 'div' } }}
        />
      </Stack>
    </FormDialog>
  );
}
