import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle';

/** Any unknown path for a subscribed user (SPEC §2). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.code'));
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 6, md: 10 } }}>
      <Typography variant="h1" component="p" color="primary" sx={{ fontSize: { xs: 72, md: 120 } }} aria-hidden>
        {t('notFound.code')}
      </Typography>
      <Typography variant="h5" component="h1" sx={{ mb: 3 }}>
        {t('notFound.message')}
      </Typography>
      <Button variant="contained" component={RouterLink} to="/">
        {t('notFound.goHome')}
      </Button>
    </Box>
  );
}
