/**
 * The agent's knowledge settings (issue 18): the language its documents and questions are analysed
 * in, and the minimum relevance below which it says it does not know — saved with PUT /api/agents/{id}.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { AGENT_LANGUAGES, DEFAULT_MIN_RELEVANCE, type Agent, type AgentLanguage } from '@agentdesk/functions/contract';
import { formatPercent } from '../../../../shared/intl';
import { useToast } from '../../../../shared/useToast';
import { useUpdateAgent } from '../../queries';
import { tabErrorMessage } from '../messages';
import { fromPercent, toPercent } from './format';

export function KnowledgeSettings({ agent }: { agent: Agent }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const update = useUpdateAgent(agent._id);
  const savedLanguage: AgentLanguage = agent.language ?? 'en';
  const savedPercent = toPercent(agent.minRelevance ?? DEFAULT_MIN_RELEVANCE);
  const [language, setLanguage] = useState<AgentLanguage>(savedLanguage);
  const [percent, setPercent] = useState(savedPercent);
  const defaultPercent = toPercent(DEFAULT_MIN_RELEVANCE);
  const changed = language !== savedLanguage || percent !== savedPercent;
  const pct = (value: number) => formatPercent(i18n.language, value / 100);

  const save = async () => {
    try {
      await update.mutateAsync({ language, minRelevance: fromPercent(percent) });
      toast.success(t('agentTabs.knowledge.settings.saved'));
    } catch (err) {
      toast.error(tabErrorMessage(err, t('agentTabs.knowledge.settings.saveFailed')));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="knowledge-settings">
      <Typography variant="h6" component="h3">
        {t('agentTabs.knowledge.settings.title')}
      </Typography>
      <Stack spacing={3} sx={{ mt: 2 }}>
        <TextField
          select
          label={t('agentTabs.knowledge.settings.language')}
          value={language}
          onChange={(e) => setLanguage(e.target.value as AgentLanguage)}
          helperText={t('agentTabs.knowledge.settings.languageHelp')}
          sx={{ maxWidth: 360 }}
        >
          {AGENT_LANGUAGES.map((code) => (
            <MenuItem key={code} value={code} lang={code}>
              {t(`agentTabs.knowledge.settings.languages.${code}`)}
            </MenuItem>
          ))}
        </TextField>
        <div>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', maxWidth: 480 }}>
            <Typography id={`min-relevance-${agent._id}`} component="span" sx={{ fontWeight: 500 }}>
              {t('agentTabs.knowledge.settings.minRelevance')}
            </Typography>
            <Typography sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="min-relevance-value">
              {pct(percent)}
            </Typography>
          </Stack>
          <Slider
            value={percent}
            onChange={(_e, value) => setPercent(Array.isArray(value) ? (value[0] ?? 0) : value)}
            min={0}
            max={100}
            step={1}
            marks={[{ value: defaultPercent }]}
            valueLabelDisplay="auto"
            valueLabelFormat={pct}
            getAriaValueText={pct}
            slotProps={{ input: { 'aria-labelledby': `min-relevance-${agent._id}` } }}
            sx={{ maxWidth: 480, display: 'block' }}
          />
          <Typography variant="body2" color="text.secondary">
            {t('agentTabs.knowledge.settings.minRelevanceHelp')} {t('agentTabs.knowledge.settings.defaultValue', { percent: pct(defaultPercent) })}
          </Typography>
        </div>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => setPercent(defaultPercent)} disabled={percent === defaultPercent || update.isPending}>
            {t('agentTabs.knowledge.settings.reset')}
          </Button>
          <Button variant="contained" onClick={() => void save()} disabled={!changed || update.isPending}>
            {update.isPending ? t('agentTabs.knowledge.settings.saving') : t('agentTabs.knowledge.settings.save')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
