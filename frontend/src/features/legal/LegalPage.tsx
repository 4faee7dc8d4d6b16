/** Static terms of service and privacy policy pages linked from the register form. */
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../shared/Brand';
import { usePageTitle } from '../../shared/usePageTitle';

export default function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  const title = t(`legal.${kind}.title`);
  usePageTitle(title);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', py: 4 }}>
      <Container maxWidth="md">
        {/* Every piece of the page inside a landmark (axe: region). */}
        <Box component="header" sx={{ mb: 3 }}>
          <Brand />
        </Box>
        <Paper component="main" variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
          <Typography variant="h4" component="h1" gutterBottom>
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            {t('legal.updated')}
          </Typography>
          {(['p1', 'p2', 'p3'] as const).map((p) => (
            <Typography key={p} sx={{ mb: 2 }}>
              {t(`legal.${kind}.${p}`)}
            </Typography>
          ))}
          <Link component={RouterLink} to="/register">
            {t('legal.back')}
          </Link>
        </Paper>
      </Container>
    </Box>
  );
}
