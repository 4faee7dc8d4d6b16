import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** Shown while access (the current user) or a lazy route loads. */
export function FullPageSpinner({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: inline ? 240 : '100vh',
        width: '100%',
      }}
    >
      <CircularProgress aria-label={t('app.loading')} />
    </Box>
  );
}
