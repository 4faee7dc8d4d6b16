/**
 * The account's privacy settings (issue 33): how long each kind of data is kept (in plain words:
 * what is deleted by itself, and that it applies to what is saved from now on), the AI and
 * recording notices with their wording per language, and the words that stop and restart
 * messages. One Save (PUT /api/privacy/settings); the server's 400 is shown as it says it.
 */
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Cancel from '@mui/icons-material/Cancel';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_NOTICE_TEXTS,
  DEFAULT_RETENTION,
  DEFAULT_START_KEYWORDS,
  DEFAULT_STOP_KEYWORDS,
  NOTICE_TEXT_MAX,
  OPT_OUT_KEYWORD_MAX_LENGTH,
  OPT_OUT_KEYWORDS_MAX,
  RETENTION_DAY_CHOICES,
  RETENTION_KINDS,
  type NoticeLanguage,
  type PrivacySettings,
  type RetentionDays,
} from '@agentdesk/functions/contract';
import { privacyApi, privacyKeys } from '../../api/privacy';
import { errorMessage, translateMessage } from '../../i18n';
import { SectionHeading } from '../../shared/SectionHeading';
import { useToast } from '../../shared/useToast';
import { addWord, noticeProblem, removeWord, settingsValid, wordProblem, type WordList } from './settingsForm';

function Section({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ mb: 2 }}>
          <SectionHeading title={title} text={text} />
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

function RetentionFields({ value, onChange }: { value: PrivacySettings['retention']; onChange: (kind: keyof PrivacySettings['retention'], days: RetentionDays) => void }) {
  const { t } = useTranslation();
  const period = (days: number) => t(`privacy.periods.${days}`);
  return (
    <Stack spacing={2.5}>
      {RETENTION_KINDS.map((kind) => (
        <TextField
          key={kind}
          select
          label={t(`privacy.retention.kinds.${kind}`)}
          value={value[kind]}
          onChange={(e) => onChange(kind, Number(e.target.value) as RetentionDays)}
          helperText={t(`privacy.retention.explain.${kind}`, { period: period(value[kind]) })}
          sx={{ maxWidth: 560 }}
        >
          {RETENTION_DAY_CHOICES.map((days) => (
            <MenuItem key={days} value={days}>
              {days === DEFAULT_RETENTION[kind] ? t('privacy.retention.default', { period: period(days) }) : period(days)}
            </MenuItem>
          ))}
        </TextField>
      ))}
      <Alert severity="info">{t('privacy.retention.appliesFromNow')}</Alert>
    </Stack>
  );
}

function NoticeText({ label, value, suggested, onChange }: { label: string; value: string; suggested: string; onChange: (text: string) => void }) {
  const { t } = useTranslation();
  const problem = noticeProblem(value);
  return (
    <Box>
      <TextField
        label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        multiline
        minRows={2}
        fullWidth
        error={problem !== null}
        helperText={problem ? t(`privacy.notices.${problem}`, { max: NOTICE_TEXT_MAX }) : t('privacy.notices.length', { length: value.length, max: NOTICE_TEXT_MAX })}
      />
      {value !== suggested && (
        <Button size="small" onClick={() => onChange(suggested)} sx={{ mt: 0.5 }}>
          {t('privacy.notices.restoreDefault')}
        </Button>
      )}
    </Box>
  );
}

function NoticeFields({ value, onChange }: { value: PrivacySettings['notices']; onChange: (notices: PrivacySettings['notices']) => void }) {
  const { t } = useTranslation();
  const languages: NoticeLanguage[] = ['es', 'en'];
  const block = (kind: 'ai' | 'recording') => {
    const textKey = kind === 'ai' ? 'aiText' : 'recordingText';
    return (
      <Stack spacing={1.5}>
        <Box>
          <FormControlLabel control={<Switch checked={value[kind]} onChange={(e) => onChange({ ...value, [kind]: e.target.checked })} />} label={t(`privacy.notices.${kind}`)} />
          <Typography variant="body2" color="text.secondary">
            {t(`privacy.notices.${kind}Help`)}
          </Typography>
        </Box>
        {languages.map((language) => (
          <NoticeText
            key={language}
            label={t(language === 'es' ? 'privacy.notices.textEs' : 'privacy.notices.textEn')}
            value={value[textKey][language]}
            suggested={DEFAULT_NOTICE_TEXTS[kind][language]}
            onChange={(text) => onChange({ ...value, [textKey]: { ...value[textKey], [language]: text } })}
          />
        ))}
      </Stack>
    );
  };
  return (
    <Stack spacing={3}>
      {block('ai')}
      <Divider />
      {block('recording')}
      <Typography variant="body2" color="text.secondary">
        {t('privacy.notices.businessHint')}
      </Typography>
    </Stack>
  );
}

function WordListField({ settings, list, onChange }: { settings: PrivacySettings; list: WordList; onChange: (next: PrivacySettings) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const problem = input.trim() ? wordProblem(settings, list, input) : null;
  const words = settings.optOut[list];
  const label = t(list === 'stopKeywords' ? 'privacy.optOut.stop' : 'privacy.optOut.start');
  const add = () => {
    if (!input.trim() || problem) return;
    onChange(addWord(settings, list, input));
    setInput('');
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" sx={{ fontWeight: 600, mb: 1 }}>
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, mb: 1.5 }} data-testid={`words-${list}`}>
        {words.map((word) => (
          <Chip
            key={word}
            label={word}
            onDelete={words.length > 1 ? () => onChange(removeWord(settings, list, word)) : undefined}
            deleteIcon={<Cancel titleAccess={t('privacy.optOut.remove', { word })} />}
          />
        ))}
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label={t('privacy.optOut.newWord')}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          error={problem !== null}
          helperText={problem ? t(`privacy.optOut.${problem}`, { max: problem === 'full' ? OPT_OUT_KEYWORDS_MAX : OPT_OUT_KEYWORD_MAX_LENGTH }) : ' '}
          slotProps={{ htmlInput: { 'aria-label': `${t('privacy.optOut.newWord')}: ${label}` } }}
        />
        <Button variant="outlined" onClick={add} disabled={!input.trim() || problem !== null}>
          {t('privacy.optOut.add')}
        </Button>
      </Stack>
    </Box>
  );
}

export function PrivacySettingsForm({ saved }: { saved: PrivacySettings }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PrivacySettings>(saved);
  const [error, setError] = useState('');
  const save = useMutation({
    mutationFn: () => privacyApi.saveSettings(draft),
    onSuccess: (env) => {
      if (env.data) {
        queryClient.setQueryData(privacyKeys.settings, env.data);
        setDraft(env.data);
      }
      setError('');
      toast.success(env.message ? translateMessage(env.message) : t('privacy.saved'));
    },
    onError: (err) => {
      const text = errorMessage(err, t('privacy.saveFailed'));
      setError(text);
      toast.error(text);
    },
  });
  const defaultWords = {
    stopKeywords: [...DEFAULT_STOP_KEYWORDS] as string[],
    startKeywords: [...DEFAULT_START_KEYWORDS] as string[],
  };
  const wordsAreDefault = JSON.stringify(draft.optOut) === JSON.stringify(defaultWords);

  return (
    <Stack
      component="form"
      spacing={3}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (settingsValid(draft)) save.mutate();
      }}
    >
      <Section title={t('privacy.retention.heading')} text={t('privacy.retention.intro')}>
        <RetentionFields value={draft.retention} onChange={(kind, days) => setDraft({ ...draft, retention: { ...draft.retention, [kind]: days } })} />
      </Section>
      <Section title={t('privacy.notices.heading')} text={t('privacy.notices.intro')}>
        <NoticeFields value={draft.notices} onChange={(notices) => setDraft({ ...draft, notices })} />
      </Section>
      <Section title={t('privacy.optOut.heading')} text={t('privacy.optOut.intro')}>
        <Stack spacing={3}>
          <WordListField settings={draft} list="stopKeywords" onChange={setDraft} />
          <WordListField settings={draft} list="startKeywords" onChange={setDraft} />
          {!wordsAreDefault && (
            <Button size="small" sx={{ alignSelf: 'flex-start' }} onClick={() => setDraft({ ...draft, optOut: defaultWords })}>
              {t('privacy.optOut.restoreDefaults')}
            </Button>
          )}
        </Stack>
      </Section>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" size="large" disabled={save.isPending || !settingsValid(draft)}>
          {save.isPending ? t('privacy.saving') : t('privacy.save')}
        </Button>
      </Box>
    </Stack>
  );
}
