/**
 * The connected view's label / value rows: Status first, then the modal's own rows, then when the
 * integration was last saved; dividers between them.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { IntegrationView } from '@agentdesk/functions/contract';
import { useIntl } from '../../../shared/useIntl';
import type { IntegrationDialogName } from './names';

/** A label and its value. */
export type DetailRowEntry = [label: string, value: ReactNode];

/** Connected / Not connected. */
function StatusChip({ isActive }: { isActive: boolean }) {
  const { t } = useTranslation();
  return <Chip size="small" color={isActive ? 'success' : 'default'} label={isActive ? t('integrations.status.connected') : t('integrations.status.notConnected')} />;
}

function DetailRow({ label, preWrap, children }: { label: string; preWrap: boolean; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 1 }}>
      <Typography color="text.secondary" sx={{ width: { sm: 170 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere', ...(preWrap && { whiteSpace: 'pre-wrap' }) }}>{children}</Box>
    </Stack>
  );
}

/** `<name>-connection-details`: Status, `rows`, Updated; `preWrap` keeps line breaks in values (a system prompt). */
export function ConnectionDetailRows({
  name,
  integration,
  rows,
  preWrap = false,
}: {
  name: IntegrationDialogName;
  integration: IntegrationView;
  rows: DetailRowEntry[];
  preWrap?: boolean;
}) {
  const { t } = useTranslation();
  const intl = useIntl();
  // When it was last saved, in the reader's language.
  const updated = intl.date(integration.updatedAt || integration.createdAt);
  const all: DetailRowEntry[] = [[t('integrations.status.label'), <StatusChip key="s" isActive={integration.isActive} />], ...rows];
  if (updated) all.push([t(`integrations.${name}.updatedAt`), updated]);
  return (
    <Box data-testid={`${name}-connection-details`}>
      {all.map(([label, value], i) => (
        <Box key={label}>
          {i > 0 && <Divider />}
          <DetailRow label={label} preWrap={preWrap}>
            {value}
          </DetailRow>
        </Box>
      ))}
    </Box>
  );
}
