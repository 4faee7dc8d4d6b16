import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle';

/** A route whose real page arrives with a later issue. */
export default function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  usePageTitle(title);
  return (
    <Box>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        {title}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 6 }, textAlign: 'center' }}>
        <ConstructionOutlined color="primary" sx={{ fontSize: 48, mb: 1 }} aria-hidden />
        <Typography variant="h6">{t('pages.comingSoon')}</Typography>
        <Typography color="text.secondary">{t('pages.comingSoonHint')}</Typography>
      </Paper>
    </Box>
  );
}
