/**
 * The ChatGPT modal (SPEC §2 Integrations, §5 ChatGPT, §8): connection details when connected,
 * else (or on Edit settings) the setup form — API key (a stored key reads '***' and is kept unless
 * retyped), model, max tokens, temperature (slider + number), system prompt and, under Advanced,
 * an optional API base URL (Azure OpenAI, a self-hosted server). Test connection shows the
 * server's answer; Save configures it and shows the details; Disconnect asks first.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandLess from '@mui/icons-material/ExpandLess';
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
import { chatGptForm, clampTemperature, formFromIntegration, setupBody, type ChatGptFormInput } from './chatgptForm';
import { hasStoredSecret } from './secretForm';
import { ConnectionDetailRows } from './dialog/ConnectionDetailRows';
import { SecretField } from './dialog/SecretField';
import { SetupDialog, type IntegrationDialogProps } from './dialog/SetupDialog';
import { SetupFormContent, type SetupFormProps } from './dialog/SetupForm';
import { contractFieldProps as fieldProps, translateContractText } from '../../shared/apiTexts';
import { selectProps } from '../../shared/forms';
import { useSetupChatGpt, useTestChatGpt } from './queries';

/** What is configured (after a successful setup, and when opening a connected card). */
function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const s = formFromIntegration(integration);
  return (
    <ConnectionDetailRows
      name="chatgpt"
      integration={integration}
      preWrap
      rows={[
        [t('integrations.chatgpt.apiKey'), hasStoredSecret(integration, 'apiKey') ? t('integrations.chatgpt.keyStored') : t('integrations.chatgpt.notSet')],
        [t('integrations.chatgpt.model'), s.model],
        [t('integrations.chatgpt.maxTokens'), String(s.maxTokens)],
        [t('integrations.chatgpt.temperature'), String(s.temperature)],
        [t('integrations.chatgpt.systemPrompt'), s.systemPrompt || t('integrations.chatgpt.notSet')],
        [t('integrations.chatgpt.baseUrl'), s.baseUrl || t('integrations.chatgpt.baseUrlDefault')],
      ]}
    />
  );
}

function SetupForm({ integration, ...done }: SetupFormProps<IntegrationView>) {
  const { t } = useTranslation();
  const storedKey = hasStoredSecret(integration, 'apiKey');
  const defaults = formFromIntegration(integration);
  const [advanced, setAdvanced] = useState(defaults.baseUrl !== '');
  const form = useForm<ChatGptFormInput, unknown, ChatGptSetupInput>({ resolver: zodResolver(chatGptForm(storedKey)), defaultValues: defaults });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const apiKey = useWatch({ control, name: 'apiKey' });
  const systemPrompt = useWatch({ control, name: 'systemPrompt' }) ?? '';

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
            {...fieldProps(errors.model)}
          >
            {CHATGPT_MODELS.map((model) => (
              <MenuItem key={model} value={model}>
                {model}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
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
                  marks={[{ value: 0 }, { value: 1 }, { value: 2 }]}
                  valueLabelDisplay="auto"
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
      <Box>
        <Button
          size="small"
          onClick={() => setAdvanced((v) => !v)}
          endIcon={advanced ? <ExpandLess /> : <ExpandMore />}
          aria-expanded={advanced}
          aria-controls="chatgpt-advanced"
          sx={{ ml: -1 }}
        >
          {t('integrations.chatgpt.advanced')}
        </Button>
        <Collapse in={advanced} id="chatgpt-advanced">
          <TextField
            sx={{ mt: 1.5 }}
            label={t('integrations.chatgpt.baseUrl')}
            placeholder="https://my-resource.openai.azure.com/openai/v1"
            autoComplete="off"
            {...register('baseUrl')}
            {...fieldProps(errors.baseUrl, t('integrations.chatgpt.baseUrlHint'))}
          />
        </Collapse>
      </Box>
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
