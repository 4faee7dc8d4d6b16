/**
 * Custom Tools tab (SPEC §2 Custom Tools, §3 Agent tool, §8 Tools): each tool with its name, the
 * 'HTTP Request' badge, description, method + endpoint, header key and parameters (name, type, a
 * star when required), edit and delete (confirmed). The header has 'View Examples' and 'Add Tool';
 * with none, 'No tools configured'. Above them, the built-in Bookings tool and its switch (issue 30),
 * and the built-in WhatsApp tools with theirs (issue 31).
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import { useTranslation } from 'react-i18next';
import type { Agent, AgentTool, ToolMethod } from '@agentdesk/functions/contract';
import { EmptyList, ListSkeleton, TabHeader } from './TabLayout';
import { BookingsToolCard } from './BookingsToolCard';
import { WhatsAppToolsCard } from './WhatsAppToolsCard';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { useConfirmedDelete } from './useConfirmedDelete';
import { tabErrorMessage } from './messages';
import { useAgentTools, useDeleteTool } from './queries';
import { ToolDialog } from './ToolDialog';
import { ToolExamplesDialog } from './ToolExamplesDialog';
import type { ToolFormValues } from './toolForm';
import { RetryAlert } from '../../../shared/RetryAlert';

const METHOD_COLOR: Record<ToolMethod, 'success' | 'primary' | 'warning' | 'error' | 'secondary'> = {
  GET: 'success',
  POST: 'primary',
  PUT: 'warning',
  PATCH: 'secondary',
  DELETE: 'error',
};

function ToolCard({ tool, onEdit, onDelete }: { tool: AgentTool; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const parameters = Object.entries(tool.properties);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="agent-tool" aria-label={tool.name} component="article">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="h3" sx={{ fontWeight: 600, fontFamily: 'monospace', wordBreak: 'break-all' }}>
              {tool.name}
            </Typography>
            <Chip size="small" label={t('agentTabs.tools.httpRequest')} color="info" variant="outlined" />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
            {tool.description}
          </Typography>
        </Box>
        <Stack direction="row" sx={{ flexShrink: 0 }}>
          <Tooltip title={t('agentTabs.common.edit')}>
            <IconButton aria-label={t('agentTabs.tools.editAria', { name: tool.name })} onClick={onEdit}>
              <EditOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('agentTabs.common.delete')}>
            <IconButton aria-label={t('agentTabs.tools.deleteAria', { name: tool.name })} onClick={onDelete}>
              <DeleteOutline />
            </IconButton>
          </Tooltip>
        </Stack>
      </Stack>

      <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', minWidth: 0 }}>
        <Chip size="small" label={tool.method} color={METHOD_COLOR[tool.method]} sx={{ fontWeight: 600, fontFamily: 'monospace' }} />
        <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 0 }}>
          {tool.endpoint}
        </Typography>
      </Stack>

      {tool.headerKey && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
          <VpnKeyOutlined fontSize="small" color="action" aria-hidden />
          <Typography variant="body2" color="text.secondary">
            {t('agentTabs.tools.header')}{' '}
            <Box component="span" sx={{ fontFamily: 'monospace', color: 'text.primary' }}>
              {tool.headerKey}
            </Box>
          </Typography>
        </Stack>
      )}

      <Box sx={{ mt: 1.5 }}>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
          {t('agentTabs.tools.parameters', { count: parameters.length })}
        </Typography>
        {parameters.length > 0 && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', listStyle: 'none', p: 0, m: 0 }} component="ul" aria-label={t('agentTabs.tools.parametersOf', { name: tool.name })}>
            {parameters.map(([name, p]) => {
              const required = tool.required.includes(name);
              return (
                <Tooltip key={name} title={p.description}>
                  <Chip
                    component="li"
                    size="small"
                    variant="outlined"
                    sx={{ fontFamily: 'monospace' }}
                    label={`${name}${required ? ' *' : ''}: ${t(`agentTabs.tools.parameterTypes.${p.type}`, { defaultValue: p.type })}`}
                    aria-label={t(required ? 'agentTabs.tools.parameterRequiredAria' : 'agentTabs.tools.parameterAria', {
                      name,
                      type: t(`agentTabs.tools.parameterTypes.${p.type}`, { defaultValue: p.type }),
                    })}
                  />
                </Tooltip>
              );
            })}
          </Stack>
        )}
      </Box>
    </Paper>
  );
}

export default function ToolsTab({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const { tools, isPlaceholderData, isFetching, isError, error, refetch } = useAgentTools(agent);
  const remove = useDeleteTool(agent._id);
  const [dialog, setDialog] = useState<{ tool: AgentTool | null; prefill: ToolFormValues | null } | null>(null);
  const [examplesOpen, setExamplesOpen] = useState(false);
  const toDelete = useConfirmedDelete(remove, (tool: AgentTool) => tool._id, {
    deleted: t('agentTabs.tools.deleted'),
    failed: t('agentTabs.tools.deleteFailed'),
  });
  const sorted = [...tools].sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  return (
    <Stack spacing={3}>
      <TabHeader
        title={t('agentTabs.tools.title')}
        intro={t('agentTabs.tools.intro')}
        actions={
          <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
            <Button variant="outlined" startIcon={<LightbulbOutlined />} onClick={() => setExamplesOpen(true)}>
              {t('agentTabs.tools.viewExamples')}
            </Button>
            <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({ tool: null, prefill: null })}>
              {t('agentTabs.tools.addTool')}
            </Button>
          </Stack>
        }
      />

      <BookingsToolCard agent={agent} />
      <WhatsAppToolsCard agent={agent} />

      {isError && !isFetching && (
        <RetryAlert retryLabel={t('agentTabs.common.retry')} onRetry={() => void refetch()}>
          {tabErrorMessage(error, t('agentTabs.tools.loadFailed'))}
        </RetryAlert>
      )}

      {sorted.length === 0 ? (
        isPlaceholderData && isFetching ? (
          <ListSkeleton label={t('agentTabs.tools.loading')} height={120} spacing={1.5} />
        ) : (
          <EmptyList icon={BuildOutlined} title={t('agentTabs.tools.emptyTitle')} body={t('agentTabs.tools.emptyBody')} />
        )
      ) : (
        <Stack spacing={1.5}>
          {sorted.map((tool) => (
            <ToolCard key={tool._id} tool={tool} onEdit={() => setDialog({ tool, prefill: null })} onDelete={() => toDelete.ask(tool)} />
          ))}
        </Stack>
      )}

      <ToolExamplesDialog
        open={examplesOpen}
        onClose={() => setExamplesOpen(false)}
        onChoose={(prefill) => {
          setExamplesOpen(false);
          setDialog({ tool: null, prefill });
        }}
      />
      <ToolDialog
        open={dialog !== null}
        agentId={agent._id}
        tool={dialog?.tool ?? null}
        prefill={dialog?.prefill ?? null}
        onClose={() => setDialog(null)}
      />
      <ConfirmDeleteDialog
        flow={toDelete}
        title={t('agentTabs.tools.deleteTitle')}
        body={t('agentTabs.tools.deleteConfirm')}
        subject={toDelete.item?.name}
      />
    </Stack>
  );
}
