/**
 * /agents/{id} (SPEC §2 Agent detail): back link, header (name, Enabled/Disabled badge,
 * Enable/Disable via POST enable/disable, Edit) and the tabs Agent Details, Files (n), Web URLs (n),
 * Custom Tools (n), Knowledge (issue 18: settings, unanswered questions with a badge of the open
 * groups, entries), Test Agent, the selected one kept in the URL (?tab=). Files and Web URLs need
 * an active ChatGPT integration (a failed status read counts as inactive): until then they are
 * disabled with a tooltip, opening one by URL shows 'ChatGPT Integration Required', and if the
 * integration goes inactive while one is selected the view returns to Agent Details.
 */
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import PauseCircleOutline from '@mui/icons-material/PauseCircleOutline';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutline';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import type { Agent } from '@agentdesk/functions/contract';
import { useAgent } from '../../api/agents';
import { ApiError } from '../../api/client';
import { useChatGptActive } from '../../api/integrations';
import { FullPageSpinner } from '../../shared/FullPageSpinner';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';
import { useToast } from '../../shared/useToast';
import { apiErrorText } from '../../shared/apiTexts';
import { AgentDetailsTab } from './AgentDetailsTab';
import { AGENT_TABS, parseTab, revertsToDetails, tabNeedsIntegration, tabParams, type AgentTab } from './detailTabs';
import { EnabledChip } from './EnabledChip';
import { VISUALLY_HIDDEN, needsInstructionsToEnable } from './enabling';
import { useSetAgentEnabled } from './queries';
import { useUnanswered } from './tabs/knowledge/queries';
import { RetryAlert } from '../../shared/RetryAlert';
import { EmptyPanel } from '../../shared/EmptyPanel';

// Each tab loads when first shown.
const FilesTab = lazy(() => import('./tabs/FilesTab'));
const UrlsTab = lazy(() => import('./tabs/UrlsTab'));
const ToolsTab = lazy(() => import('./tabs/ToolsTab'));
const TestAgentTab = lazy(() => import('./tabs/TestAgentTab'));
const KnowledgeTab = lazy(() => import('./tabs/KnowledgeTab'));

function BackLink() {
  const { t } = useTranslation();
  return (
    <Button component={RouterLink} to="/agents" startIcon={<ArrowBack />} sx={{ mb: 2, ml: -1 }}>
      {t('agents.detail.back')}
    </Button>
  );
}

function IntegrationRequired() {
  const { t } = useTranslation();
  return (
    <EmptyPanel
      card
      icon={<ExtensionOutlined sx={{ fontSize: 48, color: 'warning.main', mb: 1 }} aria-hidden />}
      title={t('agents.detail.integrationRequired.title')}
      body={t('agents.detail.integrationRequired.body')}
      sx={{ py: { xs: 5, md: 7 }, px: 2 }}
      data-testid="chatgpt-required"
    >
      <Button variant="contained" component={RouterLink} to="/integrations">
        {t('agents.detail.integrationRequired.action')}
      </Button>
    </EmptyPanel>
  );
}

function tabLabel(tab: AgentTab, agent: Agent, t: (key: string, opts?: Record<string, unknown>) => string): string {
  switch (tab) {
    case 'files':
      return t('agents.detail.tabs.files', { count: agent.files?.length ?? 0 });
    case 'urls':
      return t('agents.detail.tabs.urls', { count: agent.urls?.length ?? 0 });
    case 'tools':
      return t('agents.detail.tabs.tools', { count: agent.tools?.length ?? 0 });
    case 'test':
      return t('agents.detail.tabs.test');
    case 'knowledge':
      return t('agentTabs.knowledge.tab');
    default:
      return t('agents.detail.tabs.details');
  }
}

function AgentScreen({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const tab = parseTab(params.get('tab'));
  const chatgpt = useChatGptActive();
  const setEnabled = useSetAgentEnabled(agent._id);
  const needsInstructions = needsInstructionsToEnable(agent);
  const enableHintId = `agent-${agent._id}-enable-hint`;
  // The Knowledge tab's badge: how many groups of unanswered questions wait for an answer.
  const openQuestions = useUnanswered(agent._id).data?.length ?? 0;
  const [editing, setEditing] = useState(false);

  const selectTab = (next: AgentTab, replace = false) => setParams(tabParams(params, next), { replace });

  // SPEC §2: the integration going inactive while Files or Web URLs is open returns to Details.
  const wasActive = useRef(chatgpt.active);
  useEffect(() => {
    if (revertsToDetails(tab, wasActive.current, chatgpt.active)) setParams((p) => tabParams(p, 'details'), { replace: true });
    wasActive.current = chatgpt.active;
  }, [chatgpt.active, tab, setParams]);

  const onToggleEnabled = async () => {
    const enable = !agent.enabled;
    try {
      await setEnabled.mutateAsync(enable);
      toast.success(enable ? t('agents.toasts.activated') : t('agents.toasts.deactivated'));
    } catch (err) {
      toast.error(apiErrorText(err, t('agents.toasts.statusFailed')));
    }
  };

  const onEdit = () => {
    setEditing(true);
    if (tab !== 'details') selectTab('details');
  };

  let panel: ReactNode;
  if (tab === 'details') {
    panel = <AgentDetailsTab agent={agent} editing={editing} onEditingChange={setEditing} integrationActive={chatgpt.active} />;
  } else if (tabNeedsIntegration(tab) && !chatgpt.active) {
    panel = chatgpt.isLoading ? <FullPageSpinner inline /> : <IntegrationRequired />;
  } else if (tab === 'files') {
    panel = <FilesTab agent={agent} />;
  } else if (tab === 'urls') {
    panel = <UrlsTab agent={agent} />;
  } else if (tab === 'tools') {
    panel = <ToolsTab agent={agent} />;
  } else if (tab === 'knowledge') {
    panel = <KnowledgeTab agent={agent} />;
  } else {
    panel = <TestAgentTab agent={agent} />;
  }

  const gatedTooltip: Partial<Record<AgentTab, string>> = {
    files: t('agents.detail.filesNeedIntegration'),
    urls: t('agents.detail.urlsNeedIntegration'),
  };

  return (
    <Box>
      <BackLink />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0, flexWrap: 'wrap' }}>
          <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
            {agent.name}
          </Typography>
          <EnabledChip enabled={agent.enabled} size="medium" />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          {/* A disabled button gets no pointer events: the tooltip sits on a wrapper that does. */}
          <Tooltip title={needsInstructions ? t('agents.card.needsInstructions') : ''} arrow describeChild>
            <span>
              <Button
                variant="outlined"
                color={agent.enabled ? 'warning' : 'success'}
                onClick={() => void onToggleEnabled()}
                disabled={setEnabled.isPending || needsInstructions}
                aria-describedby={needsInstructions ? enableHintId : undefined}
                startIcon={setEnabled.isPending ? <CircularProgress size={16} color="inherit" /> : agent.enabled ? <PauseCircleOutline /> : <PlayCircleOutline />}
              >
                {agent.enabled ? t('agents.detail.disable') : t('agents.detail.enable')}
              </Button>
              {needsInstructions && (
                <Box component="span" id={enableHintId} sx={VISUALLY_HIDDEN}>
                  {t('agents.card.needsInstructions')}
                </Box>
              )}
            </span>
          </Tooltip>
          <Button variant="contained" startIcon={<EditOutlined />} onClick={onEdit} disabled={editing && tab === 'details'}>
            {t('agents.detail.edit')}
          </Button>
        </Stack>
      </Stack>

      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_e, next: AgentTab) => {
            if (tabNeedsIntegration(next) && !chatgpt.active) return;
            selectTab(next);
          }}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={t('agents.detail.tabsLabel')}
        >
          {AGENT_TABS.map((value) => {
            const locked = tabNeedsIntegration(value) && !chatgpt.active;
            const label = tabLabel(value, agent, t);
            const badged = value === 'knowledge' && openQuestions > 0;
            return (
              <Tab
                key={value}
                value={value}
                id={`agent-tab-${value}`}
                aria-controls="agent-tabpanel"
                aria-disabled={locked || undefined}
                aria-label={badged ? `${label}, ${t('agentTabs.knowledge.openBadge', { count: openQuestions })}` : undefined}
                data-testid={`agent-tab-${value}`}
                // A disabled MUI Tab swallows pointer events, so the tooltip sits on the label and
                // the click is refused in onChange instead.
                label={
                  locked ? (
                    <Tooltip title={gatedTooltip[value] ?? ''} arrow>
                      <span>{label}</span>
                    </Tooltip>
                  ) : badged ? (
                    <Badge badgeContent={openQuestions} color="warning" max={99} data-testid="knowledge-open-badge" sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none', ml: 1 } }}>
                      {label}
                    </Badge>
                  ) : (
                    label
                  )
                }
                sx={locked ? { opacity: 0.5, cursor: 'not-allowed' } : undefined}
              />
            );
          })}
        </Tabs>
      </Box>
      <Box role="tabpanel" id="agent-tabpanel" aria-labelledby={`agent-tab-${tab}`}>
        <Suspense fallback={<FullPageSpinner inline />}>{panel}</Suspense>
      </Box>
    </Box>
  );
}

export default function AgentDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const agent = useAgent(id);
  usePageTitle(agent.data?.name ?? t('pages.agentDetail'));

  if (agent.data) return <AgentScreen key={agent.data._id} agent={agent.data} />;
  if (agent.isError) {
    const notFound = agent.error instanceof ApiError && (agent.error.status === 404 || agent.error.status === 400);
    return (
      <Box>
        <BackLink />
        {notFound ? (
          <Card sx={{ textAlign: 'center', py: { xs: 5, md: 7 }, px: 2 }} data-testid="agent-not-found">
            <SearchOffOutlined sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} aria-hidden />
            <Typography variant="h6" component="h1">
              {t('agents.detail.notFound')}
            </Typography>
            <Button component={RouterLink} to="/agents" sx={{ mt: 2 }} variant="outlined">
              {t('agents.detail.backToAgents')}
            </Button>
          </Card>
        ) : (
          <RetryAlert retryLabel={t('agents.retry')} onRetry={() => void agent.refetch()} variant="filled">
            {apiErrorText(agent.error, t('agents.detail.loadFailed'))}
          </RetryAlert>
        )}
      </Box>
    );
  }
  return <FullPageSpinner inline />;
}
