/**
 * The ChatGPT modal (SPEC §2 Integrations, §5 ChatGPT, §8): connection details when connected,
 * else (or on Edit settings) the setup form — API key (a stored key reads '***' and is kept unless
 * retyped), model, the instructions for every agent (system prompt) and, folded away under
 * Advanced options (issue 29: no model knobs in front of an owner), the response length (max
 * tokens), creativity (temperature: slider + number) and an optional API base URL (Azure OpenAI, a
 * self-hosted server). Test connection shows the server's answer; Save configures it and shows the
 * details; Disconnect asks first.
 */
import { useEffect, useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CHATGPT_DEFAULTS,
  CHATGPT_LIMITS,
  CHATGPT_MODELS,
  type ChatGptSetupInput,
  type IntegrationView,
} from '@agentdesk/functions/contract';
import { chatGptForm, clampTemperature, creativityOf, formFromIntegration, setupBody, wordsForTokens, type ChatGptFormInput } from './chatgptForm';
import { hasStoredSecret } from './secretForm';
import { ConnectionDetailRows } from './dialog/ConnectionDetailRows';
import { SecretField } from './dialog/SecretField';
import { SetupDialog, type IntegrationDialogProps } from './dialog/SetupDialog';
import { SetupFormContent, type SetupFormProps } from './dialog/SetupForm';
import { contractFieldProps as fieldProps, translateContractText } from '../../shared/apiTexts';
import { selectProps } from '../../shared/forms';
import { useSetupChatGpt, useTestChatGpt } from './queries';
import { useIntl } from '../../shared/useIntl';

/** A model as the picker names it: the default one marked as recommended. */
function useModelLabel() {
  const { t } = useTranslation();
  return (model: string) => (model === CHATGPT_DEFAULTS.model ? t('integrations.chatgpt.modelRecommended', { model }) : model);
}

/** What is configured (after a successful setup, and when opening a connected card). */
function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const intl = useIntl();
  const modelLabel = useModelLabel();
  const s = formFromIntegration(integration);
  const creativity = `${t(`integrations.chatgpt.creativity.${creativityOf(Number(s.temperature))}`)} (${intl.number(Number(s.temperature))})`;
  return (
    <ConnectionDetailRows
      name="chatgpt"
      integration={integration}
      preWrap
      rows={[
        [t('integrations.chatgpt.apiKey'), hasStoredSecret(integration, 'apiKey') ? t('integrations.chatgpt.keyStored') : t('integrations.chatgpt.notSet')],
        [t('integrations.chatgpt.model'), modelLabel(s.model)],
        [t('integrations.chatgpt.systemPrompt'), s.systemPrompt || t('integrations.chatgpt.notSet')],
        [t('integrations.chatgpt.maxTokens'), t('integrations.chatgpt.maxTokensWords', { words: wordsForTokens(Number(s.maxTokens)) })],
        [t('integrations.chatgpt.temperature'), creativity],
        [t('integrations.chatgpt.baseUrl'), s.baseUrl || t('integrations.chatgpt.baseUrlDefault')],
      ]}
    />
  );
}

function SetupForm({ integration, ...done }: SetupFormProps<IntegrationView>) {
  const { t } = useTranslation();
  const storedKey = hasStoredSecret(integration, 'apiKey');
  const defaults = formFromIntegration(integration);
  const modelLabel = useModelLabel();
  // Folded away unless a custom API address is set; opened when one of its fields has an error.
  const [advanced, setAdvanced] = useState(defaults.baseUrl !== '');
  const form = useForm<ChatGptFormInput, unknown, ChatGptSetupInput>({ resolver: zodResolver(chatGptForm(storedKey)), defaultValues: defaults });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const apiKey = useWatch({ control, name: 'apiKey' });
  const systemPrompt = useWatch({ control, name: 'systemPrompt' }) ?? '';
  const advancedError = Boolean(errors.maxTokens || errors.temperature || errors.baseUrl);
  useEffect(() => {
    if (advancedError) setAdvanced(true);
  }, [advancedError]);

  return (
    <SetupFormContent name="chatgpt" form={form} setup={useSetupChatGpt()} test={useTestChatGpt()} toBody={setupBody} {...done} formSx={{ pt: 1 }}>
      <SecretField
        label={t('integrations.chatgpt.apiKey')}
        placeholder="sk-..."
        registration={register('apiKey')}
        value={apiKey}
        stored={storedKey}
        error={errors.apiKey}
        helperText={storedKey ? t('integrations.chatgpt.keyStoredHint') : t('integrations.chatgpt.apiKeyHint')}
        showLabel={t('integrations.chatgpt.showKey')}
        hideLabel={t('integrations.chatgpt.hideKey')}
      />
      <Controller
        control={control}
        name="model"
        render={({ field }) => (
          <TextField
            label={t('integrations.chatgpt.model')}
            {...selectProps(field)}
            {...fieldProps(errors.model, t('integrations.chatgpt.modelHint'))}
          >
            {CHATGPT_MODELS.map((model) => (
              <MenuItem key={model} value={model}>
                {modelLabel(model)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <TextField
        label={t('integrations.chatgpt.systemPrompt')}
        multiline
        minRows={3}
        maxRows={10}
        placeholder={t('integrations.chatgpt.systemPromptPlaceholder')}
        {...register('systemPrompt')}
        {...fieldProps(
          errors.systemPrompt,
          t('integrations.chatgpt.systemPromptHint', { count: systemPrompt.length, max: CHATGPT_LIMITS.systemPrompt }),
        )}
      />
      <Accordion
        expanded={advanced}
        onChange={(_e, open) => setAdvanced(open)}
        disableGutters
        variant="outlined"
        sx={{ '&::before': { display: 'none' } }}
        data-testid="chatgpt-advanced"
      >
        <AccordionSummary expandIcon={<ExpandMore />} aria-controls="chatgpt-advanced-content" id="chatgpt-advanced-header">
          <Box>
            <Typography>{t('integrations.chatgpt.advanced')}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t('integrations.chatgpt.advancedHint')}
            </Typography>
          </Box>
        </AccordionSummary>
        <AccordionDetails id="chatgpt-advanced-content">
          <Stack spacing={2.5}>
            <TextField
              label={t('integrations.chatgpt.maxTokens')}
              type="number"
              slotProps={{ htmlInput: { min: CHATGPT_LIMITS.maxTokensMin, max: CHATGPT_LIMITS.maxTokensMax, step: 1 } }}
              {...register('maxTokens')}
              {...fieldProps(errors.maxTokens, t('integrations.chatgpt.maxTokensHint'))}
            />
            <Controller
              control={control}
              name="temperature"
              render={({ field, fieldState }) => {
                const numeric = typeof field.value === 'number' ? field.value : Number(field.value);
                return (
                  <Box>
                    <Typography id="chatgpt-temperature-label" gutterBottom>
                      {t('integrations.chatgpt.temperature')}
                    </Typography>
                    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                      <Slider
                        aria-labelledby="chatgpt-temperature-label"
                        min={CHATGPT_LIMITS.temperatureMin}
                        max={CHATGPT_LIMITS.temperatureMax}
                        step={0.1}
                        marks={[
                          { value: 0, label: t('integrations.chatgpt.creativity.precise') },
                          { value: 1, label: t('integrations.chatgpt.creativity.balanced') },
                          { value: 2, label: t('integrations.chatgpt.creativity.creative') },
                        ]}
                        valueLabelDisplay="auto"
                        getAriaValueText={(v) => `${t(`integrations.chatgpt.creativity.${creativityOf(v)}`)} (${v})`}
                        value={Number.isFinite(numeric) ? clampTemperature(numeric) : 0}
                        onChange={(_e, v) => field.onChange(clampTemperature(v))}
                        sx={{ flex: 1 }}
                      />
                      <TextField
                        type="number"
                        value={field.value}
                        onChange={(e) => field.onChange(e.target.value)}
                        onBlur={() => {
                          // Rounded to the 0.1 step; an emptied field goes back to the default (0.7).
                          if (field.value === '') field.onChange(CHATGPT_DEFAULTS.temperature);
                          else if (Number.isFinite(numeric)) field.onChange(clampTemperature(numeric));
                          field.onBlur();
                        }}
                        error={Boolean(fieldState.error)}
                        fullWidth={false}
                        size="small"
                        sx={{ width: 96 }}
                        slotProps={{ htmlInput: { min: 0, max: 2, step: 0.1, 'aria-label': t('integrations.chatgpt.temperature') } }}
                      />
                    </Stack>
                    <Typography variant="caption" color={fieldState.error ? 'error' : 'text.secondary'}>
                      {fieldState.error?.message ? translateContractText(fieldState.error.message) : t('integrations.chatgpt.temperatureHint')}
                    </Typography>
                  </Box>
                );
              }}
            />
            <TextField
              label={t('integrations.chatgpt.baseUrl')}
              placeholder="https://my-resource.openai.azure.com/openai/v1"
              autoComplete="off"
              {...register('baseUrl')}
              {...fieldProps(errors.baseUrl, t('integrations.chatgpt.baseUrlHint'))}
            />
          </Stack>
        </AccordionDetails>
      </Accordion>
    </SetupFormContent>
  );
}

export function ChatGptDialog({ open, onClose, integration }: IntegrationDialogProps) {
  const connected = Boolean(integration?.isActive);
  // The integration just saved in this dialog (shown as connection details until it closes).
  const [saved, setSaved] = useState<IntegrationView | null>(null);
  const [editing, setEditing] = useState(!connected);
  const shown = saved ?? integration;

  return (
    <SetupDialog
      name="chatgpt"
      type="chatgpt"
      open={open}
      onClose={onClose}
      test={useTestChatGpt()}
      showForm={editing || !shown}
      form={
        <SetupForm
          integration={shown}
          onSaved={(next) => {
            setSaved(next ?? shown);
            setEditing(false);
          }}
          onCancel={() => (shown?.isActive ? setEditing(false) : onClose())}
        />
      }
      justSaved={Boolean(saved)}
      canDisconnect
      onEdit={() => setEditing(true)}
      detailsSpacing={2}
    >
      {shown && <ConnectionDetails integration={shown} />}
    </SetupDialog>
  );
}
