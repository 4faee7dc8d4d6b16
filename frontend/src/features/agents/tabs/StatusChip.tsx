/** The status of a file or web page: pending ('Processing...'), completed, failed (with its reason beside it). */
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import { useTranslation } from 'react-i18next';
import type { AgentFile } from '@agentdesk/functions/contract';

export function StatusChip({ status }: { status: AgentFile['status'] }) {
  const { t } = useTranslation();
  switch (status) {
    case 'completed':
      return <Chip size="small" color="success" variant="outlined" icon={<CheckCircleOutline />} label={t('agentTabs.status.completed')} />;
    case 'failed':
      return <Chip size="small" color="error" variant="outlined" icon={<ErrorOutline />} label={t('agentTabs.status.failed')} />;
    case 'uploading':
      return <Chip size="small" variant="outlined" icon={<CloudUploadOutlined />} label={t('agentTabs.status.uploading')} />;
    default:
      return (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          icon={<CircularProgress size={12} color="inherit" aria-hidden sx={{ ml: '6px !important' }} />}
          label={t('agentTabs.status.pending')}
        />
      );
  }
}
