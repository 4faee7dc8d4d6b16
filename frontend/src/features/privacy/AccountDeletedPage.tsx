/** /account-deleted (issue 33; public): where the owner lands after asking to delete the account, and is signed out. */
import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../shared/Brand';
import { useAuth } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';

export default function AccountDeletedPage() {
  const { t } = useTranslation();
  usePageTitle(t('privacy.goodbye.title'));
  // Reached from the deletion's dialog (not a typed URL): the session ends here, the page staying.
  const { access, signOut } = useAuth();
  const leaving = (useLocation().state as { signOut?: boolean } | null)?.signOut === true;
  const signedIn = access.status === 'authenticated';
  useEffect(() => {
    if (leaving && signedIn) signOut();
  }, [leaving, signedIn, signOut]);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', py: 4 }}>
      <Container maxWidth="sm">
        <Box component="header" sx={{ mb: 3 }}>
          <Brand />
        </Box>
        <Paper component="main" variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
          <Typography variant="h4" component="h1" gutterBottom>
            {t('privacy.goodbye.title')}
          </Typography>
          <Typography sx={{ mb: 2 }}>{t('privacy.goodbye.body')}</Typography>
          <Typography sx={{ mb: 3 }}>{t('privacy.goodbye.thanks')}</Typography>
          <Button component={RouterLink} to="/login" variant="outlined">
            {t('privacy.goodbye.home')}
          </Button>
        </Paper>
      </Container>
    </Box>
  );
}
