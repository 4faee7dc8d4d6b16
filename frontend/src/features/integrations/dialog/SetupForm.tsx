/**
 * The setup form's frame: the intro, the form (`<name>-setup-form`) around the modal's fields, and
 * under it the test outcome and Cancel / Test connection (the typed values) / Save. Save toasts
 * `integrations.<name>.saved` (or the server's message) and hands the answer to `onSaved`; a
 * failure toasts the error and keeps the form.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import { useFormState, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { IntegrationView } from '@agentdesk/functions/contract';
import { useToast } from '../../../shared/useToast';
import { apiErrorText, translateContractText } from '../../../shared/apiTexts';
import { TestConnectionButton, TestResultStatus, useConnectionTest, type TestMutation, type TestOutcome } from './connectionTest';
import type { IntegrationDialogName } from './names';

/** What a modal hands its setup form: the stored integration, and what to do after Save or on Cancel. */
export interface SetupFormProps<R> {
  integration: IntegrationView | null;
  onSaved: (result: R | null) => void;
  onCancel: () => void;
}

interface SetupMutation<B, R> {
  mutateAsync: (body: B) => Promise<{ message?: string; data?: R }>;
}

interface SetupFormContentProps<F extends FieldValues, V, B, R> extends Omit<SetupFormProps<R>, 'integration'> {
  name: IntegrationDialogName;
  /** The modal's react-hook-form form: it validates (V are the valid values) before Save and Test connection. */
  form: Pick<UseFormReturn<F, unknown, V>, 'handleSubmit' | 'control'>;
  setup: SetupMutation<B, R>;
  test: TestMutation<Partial<B>>;
  toBody: (values: V) => B;
  /** Above the form. */
  intro?: ReactNode;
  /** The form's top padding. */
  formSx: SxProps<Theme>;
  children: ReactNode;
}

export function SetupFormContent<F extends FieldValues, V, B, R>({
  name,
  form,
  setup,
  test,
  toBody,
  onSaved,
  onCancel,
  intro,
  formSx,
  children,
}: SetupFormContentProps<F, V, B, R>) {
  const { t } = useTranslation();
  const toast = useToast();
  const { isSubmitting } = useFormState({ control: form.control });
  const connectionTest = useConnectionTest(name, test);
  const formId = `${name}-setup-form`;

  const onSave = form.handleSubmit(async (values) => {
    connectionTest.clear();
    try {
      const env = await setup.mutateAsync(toBody(values));
      toast.success(env.message ? translateContractText(env.message) : t(`integrations.${name}.saved`));
      onSaved(env.data ?? null);
    } catch (err) {
      toast.error(apiErrorText(err, t(`integrations.${name}.setupFailed`)));
    }
  });
  const onTest = form.handleSubmit((values) => connectionTest.run(toBody(values)));

  return (
    <>
      <DialogContent>
        {intro}
        <Stack component="form" id={formId} noValidate onSubmit={onSave} spacing={2.5} sx={formSx}>
          {children}
        </Stack>
      </DialogContent>
      <SetupFormActions
        name={name}
        formId={formId}
        outcome={connectionTest.outcome}
        testPending={connectionTest.pending}
        isSubmitting={isSubmitting}
        onTest={() => void onTest()}
        onCancel={onCancel}
      />
    </>
  );
}

/** Under the setup form: the test outcome, then Cancel, Test connection (the typed values) and Save (submits `formId`). */
function SetupFormActions({
  name,
  formId,
  outcome,
  testPending,
  isSubmitting,
  onTest,
  onCancel,
}: {
  name: IntegrationDialogName;
  formId: string;
  outcome: TestOutcome | null;
  testPending: boolean;
  isSubmitting: boolean;
  onTest: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const busy = isSubmitting || testPending;
  return (
    <>
      {outcome && (
        <Box sx={{ px: 3, pt: 1.5 }}>
          <TestResultStatus name={name} outcome={outcome} />
        </Box>
      )}
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={isSubmitting}>
          {t('common.cancel')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <TestConnectionButton name={name} pending={testPending} disabled={busy} onClick={onTest} />
        <Button type="submit" form={formId} variant="contained" disabled={busy}>
          {isSubmitting ? t(`integrations.${name}.saving`) : t(`integrations.${name}.save`)}
        </Button>
      </DialogActions>
    </>
  );
}
