/** The visitor pages' frame: brand panel on wide screens, a form card, a language choice. */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Brand } from './Brand';
import { LanguageSwitcher } from './LanguageSwitcher';
import { usePageTitle } from './usePageTitle';

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
}

export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      {/* Every piece of the page inside a landmark (axe: region): the brand panel, the bar, the form. */}
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          width: '42%',
          maxWidth: 560,
          p: 6,
          color: 'common.white',
          background: 'linear-gradient(145deg, #4338ca 0%, #4f46e5 45%, #0ea5e9 100%)',
        }}
      >
        <Brand inverse />
        <Box>
          <Typography variant="h3" component="p" sx={{ fontWeight: 700, lineHeight: 1.15, mb: 2 }}>
            {t('auth.panel.title')}
          </Typography>
          <Typography sx={{ opacity: 0.9, fontSize: 18 }}>{t('app.tagline')}</Typography>
        </Box>
        <Typography variant="body2" sx={{ opacity: 0.75 }}>
          © {t('app.name')}
        </Typography>
      </Box>
      <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', px: 2, py: 3 }}>
        <Stack component="header" direction="row" sx={{ width: '100%', maxWidth: 480, justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
          <Box sx={{ display: { xs: 'block', md: 'none' } }}>
            <Brand />
          </Box>
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
        </Stack>
        <Paper
          component="main"
          variant="outlined"
          sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 4 }, my: 'auto' }}
        >
          <Typography variant="h5" component="h1" sx={{ mb: 0.5 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </Paper>
      </Box>
    </Box>
  );
}
