import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

/** The Enabled/Disabled badge of an agent. */
export function EnabledChip({ enabled, size = 'small' }: { enabled: boolean; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  return (
    <Chip
      size={size}
      color={enabled ? 'success' : 'default'}
      variant={enabled ? 'filled' : 'outlined'}
      label={enabled ? t('agents.status.enabled') : t('agents.status.disabled')}
      sx={{ fontWeight: 600, flexShrink: 0 }}
    />
  );
}
