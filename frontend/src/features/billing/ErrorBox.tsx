import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';

/** A failed checkout or plan change: a red panel titled 'Error' (SPEC §8). */
export function ErrorBox({ message, onClose }: { message: string; onClose?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert severity="error" variant="outlined" onClose={onClose} sx={{ mb: 3 }}>
      <AlertTitle>{t('billing.errorTitle')}</AlertTitle>
      {message}
    </Alert>
  );
}
