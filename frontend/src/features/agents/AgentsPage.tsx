/**
 * /agents, 'AI Agents' (SPEC §2 Agents): a grid of agent cards — name, Enabled/Disabled badge,
 * priority, description, file and URL counts, created date, delete (asks first) and the
 * enable/disable switch (PUT {enabled}); a disabled agent is overlaid 'Agent Disabled'. A card
 * opens /agents/{id}. Create asks only for the name.
 */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import CalendarTodayOutlined from '@mui/icons-material/CalendarTodayOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { Agent } from '@agentdesk/functions/contract';
import { useAgents } from '../../api/agents';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';
import { useToast } from '../../shared/useToast';
import { apiErrorText } from '../../shared/apiTexts';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { CreateAgentDialog } from './CreateAgentDialog';
import { EnabledChip } from './EnabledChip';
import { VISUALLY_HIDDEN, needsInstructionsToEnable } from './enabling';
import { useDeleteAgent, useToggleAgent } from './queries';
import { formatDate } from '../../shared/intl';
import { RetryAlert } from '../../shared/RetryAlert';
import { EmptyPanel } from '../../shared/EmptyPanel';
import { PageHeader } from '../../shared/PageHeader';

function Meta({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
      {icon}
      <Typography variant="body2">{children}</Typography>
    </Stack>
  );
}

interface AgentCardProps {
  agent: Agent;
  toggling: boolean;
  onToggle: (agent: Agent, enabled: boolean) => void;
  onDelete: (agent: Agent) => void;
}

function AgentCard({ agent, toggling, onToggle, onDelete }: AgentCardProps) {
  const needsInstructions = needsInstructionsToEnable(agent);
  const hintId = `agent-${agent._id}-enable-hint`;
  const { t, i18n } = useTranslation();
  const created = formatDate(i18n.language, agent.createdAt, 'date') ?? '';
  return (
    <Card component="article" aria-label={agent.name} data-testid="agent-card" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <CardActionArea component={RouterLink} to={`/agents/${agent._id}`} sx={{ flex: 1, display: 'flex', alignItems: 'stretch', position: 'relative' }}>
        <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1.25 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
            <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
              {agent.name}
            </Typography>
            <EnabledChip enabled={agent.enabled} />
          </Stack>
          <Typography variant="body2" sx={{ fontWeight: 600 }} color="primary">
            {t('agents.card.priority', { priority: agent.priority ?? 0 })}
          </Typography>
          <Typography
            variant="body2"
            color={agent.description ? 'text.primary' : 'text.secondary'}
            sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere', flex: 1 }}
          >
            {agent.description || t('agents.card.noDescription')}
          </Typography>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Meta icon={<DescriptionOutlined fontSize="small" />}>{t('agents.card.files', { count: agent.files?.length ?? 0 })}</Meta>
            <Meta icon={<LanguageOutlined fontSize="small" />}>{t('agents.card.urls', { count: agent.urls?.length ?? 0 })}</Meta>
          </Stack>
          {created && <Meta icon={<CalendarTodayOutlined fontSize="small" />}>{t('agents.card.created', { date: created })}</Meta>}
        </CardContent>
        {!agent.enabled && (
          <Box
            data-testid="agent-disabled-overlay"
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'rgba(246, 247, 251, 0.65)',
              pointerEvents: 'none',
            }}
          >
            <Chip label={t('agents.card.disabledOverlay')} sx={{ fontWeight: 700, bgcolor: 'grey.800', color: 'common.white' }} />
          </Box>
        )}
      </CardActionArea>
      <CardActions sx={{ justifyContent: 'space-between', borderTop: 1, borderColor: 'divider', px: 2 }}>
        {/* Without instructions the server refuses to enable: the switch is off and says why. */}
        <Tooltip title={needsInstructions ? t('agents.card.needsInstructions') : ''} arrow describeChild>
          <FormControlLabel
            control={
              <Switch
                checked={agent.enabled}
                disabled={toggling || needsInstructions}
                onChange={(e) => onToggle(agent, e.target.checked)}
                slotProps={{
                  input: {
                    'aria-label': t('agents.card.toggle', { name: agent.name }),
                    'aria-describedby': needsInstructions ? hintId : undefined,
                  },
                }}
              />
            }
            label={agent.enabled ? t('agents.status.enabled') : t('agents.status.disabled')}
          />
        </Tooltip>
        {needsInstructions && (
          <Box component="span" id={hintId} sx={VISUALLY_HIDDEN}>
            {t('agents.card.needsInstructions')}
          </Box>
        )}
        <Tooltip title={t('agents.card.delete', { name: agent.name })}>
          <IconButton aria-label={t('agents.card.delete', { name: agent.name })} onClick={() => onDelete(agent)} sx={{ color: 'error.main' }}>
            <DeleteOutline />
          </IconButton>
        </Tooltip>
      </CardActions>
    </Card>
  );
}

function EmptyState({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyPanel
      card
      icon={<SmartToyOutlined sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} aria-hidden />}
      title={t('agents.empty.title')}
      body={t('agents.empty.body')}
      sx={{ py: { xs: 6, md: 8 }, px: 2 }}
      data-testid="agents-empty"
    >
      <Button variant="contained" startIcon={<Add />} onClick={onCreate}>
        {t('agents.empty.create')}
      </Button>
    </EmptyPanel>
  );
}

const GRID_SX = {
  display: 'grid',
  gap: 3,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
} as const;

export default function AgentsPage() {
  const { t } = useTranslation();
  usePageTitle(t('agents.title'));
  const toast = useToast();
  const agents = useAgents();
  const toggle = useToggleAgent();
  const remove = useDeleteAgent();
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Agent | null>(null);

  const onToggle = async (agent: Agent, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ id: agent._id, enabled });
    } catch (err) {
      toast.error(apiErrorText(err, t('agents.toasts.toggleFailed')));
    }
  };

  const onConfirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete._id);
      toast.success(t('agents.toasts.deleted'));
      setToDelete(null);
    } catch (err) {
      toast.error(apiErrorText(err, t('agents.toasts.deleteFailed')));
    }
  };

  let body: ReactNode;
  if (agents.isPending) {
    body = (
      <Box sx={GRID_SX} role="status" aria-busy="true" aria-label={t('app.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={260} />
        ))}
      </Box>
    );
  } else if (agents.isError) {
    body = (
      <RetryAlert retryLabel={t('agents.retry')} onRetry={() => void agents.refetch()}>
        {apiErrorText(agents.error, t('agents.toasts.loadFailed'))}
      </RetryAlert>
    );
  } else if (agents.data.length === 0) {
    body = <EmptyState onCreate={() => setCreating(true)} />;
  } else {
    body = (
      <Box sx={GRID_SX}>
        {agents.data.map((agent) => (
          <AgentCard
            key={agent._id}
            agent={agent}
            toggling={toggle.isPending && toggle.variables?.id === agent._id}
            onToggle={(a, enabled) => void onToggle(a, enabled)}
            onDelete={setToDelete}
          />
        ))}
      </Box>
    );
  }

  return (
    <Box>
      <PageHeader title={t('agents.title')} subtitle={t('agents.subtitle')}>
        <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)} sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }}>
          {t('agents.create.open')}
        </Button>
      </PageHeader>
      {body}
      <CreateAgentDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('agents.delete.title')}
        body={t('agents.delete.body', { name: toDelete?.name ?? '' })}
        confirmLabel={t('agents.delete.confirm')}
        pendingLabel={t('agents.delete.deleting')}
        pending={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void onConfirmDelete()}
      />
    </Box>
  );
}
