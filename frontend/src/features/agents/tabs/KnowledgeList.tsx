/**
 * The list the Files and URLs tabs share (the agent's knowledge): a placeholder while the first load
 * runs, the empty state, else one row per document or page — its icon, what it is, why it failed
 * (with Reprocess beside the reason), its status, one action (download, refresh) and delete.
 * `section` picks the `agentTabs.<section>.*` texts.
 */
import type { ReactNode } from 'react';
import type { SvgIconComponent } from '@mui/icons-material';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Replay from '@mui/icons-material/Replay';
import { useTranslation } from 'react-i18next';
import type { AgentFile } from '@agentdesk/functions/contract';
import { tabMessage } from './messages';
import { StatusChip } from './StatusChip';
import { EmptyList, ListSkeleton } from './TabLayout';

type KnowledgeSection = 'files' | 'urls';

interface KnowledgeListProps<T> {
  section: KnowledgeSection;
  items: T[];
  /** The first load is still running. */
  loading: boolean;
  /** Something else stands in for the list (uploads in flight): no empty state. */
  busy?: boolean;
  emptyIcon: SvgIconComponent;
  /** A row; `divider` under every row but the last. */
  children: (item: T, divider: boolean) => ReactNode;
}

export function KnowledgeList<T>({ section, items, loading, busy = false, emptyIcon, children }: KnowledgeListProps<T>) {
  const { t } = useTranslation();
  if (items.length === 0) {
    if (busy) return null;
    return loading ? (
      <ListSkeleton label={t(`agentTabs.${section}.loading`)} height={56} spacing={1} />
    ) : (
      <EmptyList icon={emptyIcon} title={t(`agentTabs.${section}.emptyTitle`)} body={t(`agentTabs.${section}.emptyBody`)} />
    );
  }
  return (
    <Paper variant="outlined">
      <List disablePadding aria-label={t(`agentTabs.${section}.listLabel`)}>
        {items.map((item, index) => children(item, index < items.length - 1))}
      </List>
    </Paper>
  );
}

interface KnowledgeRowProps {
  section: KnowledgeSection;
  testId: string;
  divider: boolean;
  icon: ReactNode;
  status: AgentFile['status'];
  /** Why reading it failed (a contract text), when it did. */
  error?: string | null;
  /** The button before delete, in a span so its tooltip shows while it is disabled. */
  action: { title: string; label: string; icon: ReactNode; onClick: () => void; disabled: boolean };
  /** Read it again, offered beside the reason when it failed (issue 34). */
  reprocess?: { label: string; onClick: () => void; busy: boolean };
  deleteLabel: string;
  onDelete: () => void;
  /** What it is: name, link, dates. */
  children: ReactNode;
}

export function KnowledgeRow({ section, testId, divider, icon, status, error, action, reprocess, deleteLabel, onDelete, children }: KnowledgeRowProps) {
  const { t } = useTranslation();
  return (
    <ListItem divider={divider} data-testid={testId} sx={{ py: 1.5, alignItems: 'flex-start', gap: 2, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
      <Box sx={{ pt: 0.5 }}>{icon}</Box>
      <Box sx={{ flex: 1, minWidth: { xs: 'calc(100% - 48px)', sm: 0 } }}>
        {children}
        {status === 'failed' && (
          <Alert
            severity="error"
            variant="outlined"
            sx={{ mt: 1, py: 0 }}
            action={
              reprocess && (
                <Button color="inherit" size="small" startIcon={<Replay />} aria-label={reprocess.label} onClick={reprocess.onClick} disabled={reprocess.busy}>
                  {t(`agentTabs.${section}.reprocess`)}
                </Button>
              )
            }
          >
            {error ? tabMessage(error) : t(`agentTabs.${section}.failedUnknown`)}
          </Alert>
        )}
      </Box>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexShrink: 0, ml: 'auto' }}>
        <StatusChip status={status} />
        <Tooltip title={action.title}>
          <span>
            <IconButton aria-label={action.label} onClick={action.onClick} disabled={action.disabled}>
              {action.icon}
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('agentTabs.common.delete')}>
          <IconButton aria-label={deleteLabel} onClick={onDelete}>
            <DeleteOutline />
          </IconButton>
        </Tooltip>
      </Stack>
    </ListItem>
  );
}
