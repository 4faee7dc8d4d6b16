/**
 * /voice-settings (SPEC §2 Voice settings, §3, §5, §8, §9): the five call messages, language,
 * the voice picker from the fixed catalogue (premium voices shown but not selectable), speech
 * rate / pitch / volume, recording, max call duration, summary notifications (method, webhook URL
 * and its signing secret, the WhatsApp 24-hour window note), the forwarding number, the phone
 * number request panel (#phone-number), Reset to Defaults (confirmed) and Save Settings. Beyond
 * the spec (issue 16): the conversation mode (real-time answers or the classic <Gather> loop), with
 * a note when the chosen voice cannot answer in real time (those calls use the classic mode); issue
 * 28: additional languages a real-time call switches to when the caller speaks one of them.
 */
import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import RestartAlt from '@mui/icons-material/RestartAlt';
import Save from '@mui/icons-material/Save';
import { Controller, useForm, useWatch, type FieldError, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import {
  CONVERSATION_MODES,
  VOICE_LANGUAGES,
  VOICE_LIMITS,
  type ConversationMode,
  type VoiceCatalogueEntry,
  type VoiceSettings,
  type VoiceSettingsInput,
} from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { fieldProps as sharedFieldProps, selectProps } from '../../../shared/forms';
import { usePageTitle } from '../../../shared/usePageTitle';
import { useToast } from '../../../shared/useToast';
import './i18n';
import { knownOr, translateVoiceText } from './messages';
import { PhoneNumberPanel } from './PhoneNumberPanel';
import { useResetVoiceSettings, useSaveVoiceSettings, useVoiceSettings } from './queries';
import {
  SUMMARY_METHOD_CHOICES,
  formFromSettings,
  parseForm,
  voiceById,
  voiceCanStream,
  voiceLanguageMismatch,
  voiceKey,
  voiceOptions,
  type VoiceSettingsFormValues,
} from './settingsForm';
import { useAuth } from '../../../shared/session';
import { phoneHint } from '../../../shared/phoneCountry';
import { WebhookSecret } from './WebhookSecret';
import { RetryAlert } from '../../../shared/RetryAlert';
import { PageHeader } from '../../../shared/PageHeader';

const resolver: Resolver<VoiceSettingsFormValues, unknown, VoiceSettingsInput> = (values) => {
  const parsed = parseForm(values);
  if (parsed.ok) return { values: parsed.body, errors: {} };
  const errors = Object.fromEntries(Object.entries(parsed.errors).map(([field, message]) => [field, { type: 'validate', message }]));
  return { values: {}, errors };
};

/** Voice texts carry their field's translated label (translateVoiceText). */
function fieldProps(error: FieldError | undefined, hint?: ReactNode) {
  return sharedFieldProps(error, hint, translateVoiceText);
}

function Section({ id, title, hint, children }: { id: string; title: string; hint?: string; children: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={`${id}-title`}>
      <CardContent>
        <Typography id={`${id}-title`} variant="h6" component="h2">
          {title}
        </Typography>
        {hint && (
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        )}
        <Stack spacing={2.5} sx={{ mt: 2 }}>
          {children}
        </Stack>
      </CardContent>
    </Card>
  );
}

const MESSAGE_FIELDS = ['messageWelcome', 'messageNoInput', 'messageFallback', 'messageGoodbye', 'messageError'] as const;
const NUMBER_FIELDS = [
  ['speechRate', VOICE_LIMITS.speechRate, 0.1],
  ['pitch', VOICE_LIMITS.pitch, 0.1],
  ['volume', VOICE_LIMITS.volume, 0.1],
] as const;

/** A voice's name and description in the UI language (the catalogue's English ones for a voice the catalogue lacks). */
function useVoiceText() {
  const { t } = useTranslation();
  return (voice: VoiceCatalogueEntry) => ({
    name: t(`voiceSettings.voices.${voiceKey(voice.id)}.name`, { defaultValue: voice.name }),
    description: t(`voiceSettings.voices.${voiceKey(voice.id)}.description`, { defaultValue: voice.description }),
  });
}

function VoiceOption({ voice }: { voice: VoiceCatalogueEntry }) {
  const { t } = useTranslation();
  const text = useVoiceText()(voice);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, width: '100%', minWidth: 0 }}>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography component="span" sx={{ fontWeight: 500 }}>
          {text.name}
        </Typography>{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          · {t(`voiceSettings.fields.${voice.gender}`)} · {t(`voiceSettings.languages.${voice.language}`)}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div" noWrap>
          {text.description}
        </Typography>
      </Box>
      {voice.included && !voiceCanStream(voice.id) && <Chip size="small" variant="outlined" label={t('voiceSettings.fields.classicOnly')} />}
      {!voice.included && <Chip size="small" color="secondary" variant="outlined" label={t('voiceSettings.fields.premium')} />}
    </Box>
  );
}

function SettingsForm({ settings }: { settings: VoiceSettings }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveVoiceSettings();
  const reset = useResetVoiceSettings();
  const [confirmReset, setConfirmReset] = useState(false);
  // On a phone the sticky bar stays one row: reset as an icon, 'Guardar' short (its name stays whole).
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    reset: resetForm,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<VoiceSettingsFormValues, unknown, VoiceSettingsInput>({ resolver, defaultValues: formFromSettings(settings) });
  const method = useWatch({ control, name: 'summaryNotificationMethod' });
  const language = useWatch({ control, name: 'language' });
  const voice = useWatch({ control, name: 'voice' });
  const conversationMode = useWatch({ control, name: 'conversationMode' });
  const messages = useWatch({ control, name: MESSAGE_FIELDS });
  const { included, premium } = voiceOptions();
  const chosen = voiceById(voice);
  const voiceText = useVoiceText();
  const { user } = useAuth();
  const forwardExample = phoneHint(user?.country || 'US').international;

  const onSave = handleSubmit(async (body) => {
    try {
      const env = await save.mutateAsync(body);
      resetForm(formFromSettings(env.data ?? { ...settings, ...body }));
      toast.success(env.message ? translateVoiceText(env.message) : t('voiceSettings.toasts.updated'));
    } catch (err) {
      toast.error(knownOr(err, t('voiceSettings.toasts.updateFailed')));
    }
  });

  const onReset = async () => {
    try {
      const env = await reset.mutateAsync();
      resetForm(formFromSettings(env.data ?? null));
      setConfirmReset(false);
      toast.success(env.message ? translateVoiceText(env.message) : t('voiceSettings.toasts.reset'));
    } catch (err) {
      setConfirmReset(false);
      toast.error(knownOr(err, t('voiceSettings.toasts.resetFailed')));
    }
  };

  return (
    <Stack spacing={3}>
      <Stack component="form" id="voice-settings-form" noValidate spacing={3} onSubmit={(e) => void onSave(e)}>
        <Section id="voice-messages" title={t('voiceSettings.sections.messages')} hint={t('voiceSettings.sections.messagesHint')}>
          {MESSAGE_FIELDS.map((name, i) => (
            <TextField
              key={name}
              label={t(`voiceSettings.fields.${name}`)}
              required
              multiline
              minRows={2}
              {...register(name)}
              {...fieldProps(
                errors[name],
                <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                  <span>{t(`voiceSettings.fields.${name}Hint`)}</span>
                  <span>{t('voiceSettings.fields.counter', { count: (messages[i] ?? '').length, max: VOICE_LIMITS.message })}</span>
                </Box>,
              )}
            />
          ))}
        </Section>

        <Section id="voice-voice" title={t('voiceSettings.sections.voice')}>
          <Controller
            control={control}
            name="language"
            render={({ field }) => (
              <TextField
                label={t('voiceSettings.fields.language')}
                {...selectProps(field)}
                onChange={(e) => {
                  field.onChange(e);
                  // The main language is never also an additional one.
                  const additional = getValues('additionalLanguages');
                  if (additional.includes(e.target.value)) setValue('additionalLanguages', additional.filter((l) => l !== e.target.value), { shouldDirty: true });
                }}
                {...fieldProps(errors.language, t('voiceSettings.fields.languageHint'))}
              >
                {VOICE_LANGUAGES.map((lang) => (
                  <MenuItem key={lang} value={lang}>
                    {t(`voiceSettings.languages.${lang}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="additionalLanguages"
            render={({ field }) => (
              <TextField
                label={t('voiceSettings.fields.additionalLanguages')}
                {...selectProps(field)}
                slotProps={{
                  select: {
                    multiple: true,
                    displayEmpty: true,
                    renderValue: (value) => {
                      const codes = value as string[];
                      return codes.length === 0 ? t('voiceSettings.fields.additionalLanguagesNone') : codes.map((lang) => t(`voiceSettings.languages.${lang}`, { defaultValue: lang })).join(', ');
                    },
                    SelectDisplayProps: { 'data-testid': 'additional-languages-select' } as object,
                  },
                  inputLabel: { shrink: true },
                }}
                {...fieldProps(errors.additionalLanguages as FieldError | undefined, t('voiceSettings.fields.additionalLanguagesHint'))}
              >
                {VOICE_LANGUAGES.filter((lang) => lang !== language).map((lang) => (
                  <MenuItem key={lang} value={lang} data-testid={`additional-language-${lang}`}>
                    {t(`voiceSettings.languages.${lang}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="voice"
            render={({ field }) => (
              <TextField
                label={t('voiceSettings.fields.voice')}
                {...selectProps(field)}
                slotProps={{
                  select: {
                    renderValue: (value) => {
                      const entry = voiceById(String(value));
                      return entry ? voiceText(entry).name : String(value);
                    },
                    MenuProps: { slotProps: { paper: { sx: { maxHeight: 420 } } } },
                    SelectDisplayProps: { 'data-testid': 'voice-select' } as object,
                  },
                }}
                {...fieldProps(errors.voice, t('voiceSettings.fields.voiceHint'))}
              >
                <ListSubheader>{t('voiceSettings.fields.included')}</ListSubheader>
                {included.map((v) => (
                  <MenuItem key={v.id} value={v.id} data-testid={`voice-option-${v.id}`}>
                    <VoiceOption voice={v} />
                  </MenuItem>
                ))}
                <ListSubheader>{t('voiceSettings.fields.premiumGroup')}</ListSubheader>
                {premium.map((v) => (
                  <MenuItem key={v.id} value={v.id} disabled data-testid={`voice-option-${v.id}`}>
                    <VoiceOption voice={v} />
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {chosen && voiceLanguageMismatch(voice, language) && (
            <Alert severity="warning">
              {t('voiceSettings.fields.voiceMismatch', {
                voiceLanguage: t(`voiceSettings.languages.${chosen.language}`),
                language: t(`voiceSettings.languages.${language}`, { defaultValue: language }),
              })}
            </Alert>
          )}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}>
            {NUMBER_FIELDS.map(([name, [min, max], step]) => (
              <TextField
                key={name}
                label={t(`voiceSettings.fields.${name}`)}
                type="number"
                slotProps={{ htmlInput: { min, max, step, inputMode: 'decimal' } }}
                {...register(name)}
                {...fieldProps(errors[name], t(`voiceSettings.fields.${name}Hint`))}
              />
            ))}
          </Box>
        </Section>

        <Section id="voice-call" title={t('voiceSettings.sections.call')}>
          <Controller
            control={control}
            name="conversationMode"
            render={({ field }) => (
              <FormControl component="fieldset">
                <FormLabel component="legend" id="conversation-mode-label">
                  {t('voiceSettings.fields.conversationMode')}
                </FormLabel>
                <RadioGroup
                  aria-labelledby="conversation-mode-label"
                  name={field.name}
                  value={field.value}
                  onChange={(_, value) => field.onChange(value as ConversationMode)}
                  onBlur={field.onBlur}
                >
                  {CONVERSATION_MODES.map((mode, i) => (
                    <FormControlLabel
                      key={mode}
                      value={mode}
                      control={<Radio inputRef={i === 0 ? field.ref : undefined} />}
                      sx={{ alignItems: 'flex-start', mt: 1, '& .MuiRadio-root': { pt: 0.25 } }}
                      data-testid={`conversation-mode-${mode}`}
                      label={
                        <Box>
                          <Typography>{t(`voiceSettings.conversationModes.${mode}`)}</Typography>
                          <Typography variant="body2" color="text.secondary">
                            {t(`voiceSettings.conversationModes.${mode}Hint`)}
                          </Typography>
                        </Box>
                      }
                    />
                  ))}
                </RadioGroup>
              </FormControl>
            )}
          />
          {conversationMode === 'streaming' && chosen && !voiceCanStream(voice) && (
            <Alert severity="info" data-testid="voice-cannot-stream">
              {t('voiceSettings.fields.voiceCannotStream', { voice: voiceText(chosen).name })}
            </Alert>
          )}
          <Controller
            control={control}
            name="enableRecording"
            render={({ field }) => (
              <Box>
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} inputRef={field.ref} />}
                  label={t('voiceSettings.fields.enableRecording')}
                />
                <FormHelperText sx={{ mt: 0 }}>{t('voiceSettings.fields.enableRecordingHint')}</FormHelperText>
              </Box>
            )}
          />
          <TextField
            label={t('voiceSettings.fields.maxCallDuration')}
            type="number"
            slotProps={{ htmlInput: { min: VOICE_LIMITS.maxCallDuration[0], max: VOICE_LIMITS.maxCallDuration[1], step: 1, inputMode: 'numeric' } }}
            {...register('maxCallDuration')}
            {...fieldProps(errors.maxCallDuration, t('voiceSettings.fields.maxCallDurationHint'))}
          />
        </Section>

        <Section id="voice-summary" title={t('voiceSettings.sections.summary')} hint={t('voiceSettings.sections.summaryHint')}>
          <Controller
            control={control}
            name="summaryNotificationMethod"
            render={({ field }) => (
              <TextField
                label={t('voiceSettings.fields.summaryNotificationMethod')}
                {...selectProps(field)}
                {...fieldProps(errors.summaryNotificationMethod)}
              >
                {SUMMARY_METHOD_CHOICES.map((m) => (
                  <MenuItem key={m} value={m}>
                    {t(`voiceSettings.methods.${m}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {method === 'email' && <Alert severity="info">{t('voiceSettings.methodNotes.email')}</Alert>}
          {method === 'whatsapp' && (
            <Alert severity="warning" data-testid="whatsapp-window-note">
              {t('voiceSettings.methodNotes.whatsapp')}
            </Alert>
          )}
          {method === 'webhook' && (
            <>
              <TextField
                label={t('voiceSettings.fields.summaryWebhookUrl')}
                type="url"
                required
                placeholder="https://example.com/agentdesk/calls"
                {...register('summaryWebhookUrl')}
                {...fieldProps(errors.summaryWebhookUrl, t('voiceSettings.fields.summaryWebhookUrlHint'))}
              />
              <Alert severity="info" sx={{ overflowWrap: 'anywhere' }}>
                {t('voiceSettings.methodNotes.webhook')}
              </Alert>
              <WebhookSecret hint={settings.summaryWebhookSecretHint} />
            </>
          )}
        </Section>

        <Section id="voice-forwarding" title={t('voiceSettings.sections.forwarding')}>
          <TextField
            label={t('voiceSettings.fields.escalationForwardNumber')}
            type="tel"
            placeholder={forwardExample}
            autoComplete="off"
            {...register('escalationForwardNumber')}
            {...fieldProps(errors.escalationForwardNumber, t('voiceSettings.fields.escalationForwardNumberHint', { example: forwardExample }))}
          />
        </Section>
      </Stack>

      <PhoneNumberPanel phone={settings.phoneNumber} />

      <Paper
        variant="outlined"
        data-testid="voice-settings-actions"
        sx={{ position: 'sticky', bottom: 0, zIndex: 2, p: phone ? 1 : 2, display: 'flex', flexWrap: phone ? 'nowrap' : 'wrap', gap: phone ? 1 : 1.5, alignItems: 'center' }}
      >
        {isDirty && (
          <Typography variant={phone ? 'caption' : 'body2'} color="text.secondary" sx={{ flex: 1, minWidth: 0 }}>
            {t('voiceSettings.actions.unsaved')}
          </Typography>
        )}
        <Box sx={{ flex: isDirty ? 0 : 1 }} />
        {phone ? (
          <Tooltip title={t('voiceSettings.actions.reset')}>
            <span>
              <IconButton aria-label={t('voiceSettings.actions.reset')} onClick={() => setConfirmReset(true)} disabled={isSubmitting || reset.isPending}>
                <RestartAlt />
              </IconButton>
            </span>
          </Tooltip>
        ) : (
          <Button variant="outlined" color="inherit" startIcon={<RestartAlt />} onClick={() => setConfirmReset(true)} disabled={isSubmitting || reset.isPending}>
            {t('voiceSettings.actions.reset')}
          </Button>
        )}
        <Button
          type="submit"
          form="voice-settings-form"
          variant="contained"
          startIcon={<Save />}
          disabled={isSubmitting || reset.isPending}
          aria-label={phone && !isSubmitting ? t('voiceSettings.actions.save') : undefined}
          sx={{ flexShrink: 0 }}
        >
          {isSubmitting ? t('voiceSettings.actions.saving') : phone ? t('voiceSettings.actions.saveShort') : t('voiceSettings.actions.save')}
        </Button>
      </Paper>

      <ConfirmDialog
        open={confirmReset}
        title={t('voiceSettings.actions.resetTitle')}
        body={t('voiceSettings.actions.resetConfirm')}
        confirmLabel={t('voiceSettings.actions.reset')}
        pendingLabel={t('voiceSettings.actions.resetting')}
        pending={reset.isPending}
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => void onReset()}
      />
    </Stack>
  );
}

export default function VoiceSettingsPage() {
  const { t } = useTranslation();
  usePageTitle(t('voiceSettings.title'));
  const settings = useVoiceSettings();
  const { hash } = useLocation();
  const loaded = Boolean(settings.data);

  // The #phone-number anchor (linked from elsewhere) only exists once the settings are loaded.
  useEffect(() => {
    if (!loaded || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);

  let body: ReactNode;
  if (settings.isPending) {
    body = (
      <Stack spacing={3} role="status" aria-busy="true" aria-label={t('voiceSettings.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={220} />
        ))}
      </Stack>
    );
  } else if (settings.isError || !settings.data) {
    body = (
      <RetryAlert retryLabel={t('voiceSettings.retry')} onRetry={() => void settings.refetch()}>
        {t('voiceSettings.loadFailed')}
      </RetryAlert>
    );
  } else {
    body = <SettingsForm settings={settings.data} />;
  }

  return (
    <Box sx={{ maxWidth: 900 }}>
      <PageHeader title={t('voiceSettings.title')} subtitle={t('voiceSettings.subtitle')} />
      {body}
    </Box>
  );
}
