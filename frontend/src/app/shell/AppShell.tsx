/** The signed-in layout (after MUI's dashboard template): app bar, sidebar drawer, content. */
import { useState, type ReactNode } from 'react';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuth, useCurrentUser } from '../../shared/session';
import { Brand } from '../../shared/Brand';
import { MAIN_CONTENT_ID, SkipLink } from '../../shared/SkipLink';
import { VisuallyHidden } from '../../shared/VisuallyHidden';
import { Sidebar } from './Sidebar';
// Spanish for the server texts of the signed-in screens (kept out of the login route).
import '../../i18n/serverTexts';
import { NotificationBell } from '../../features/notifications/NotificationBell';

const DRAWER_WIDTH = 264;

export default function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const user = useCurrentUser();
  const { signOut } = useAuth();

  const sidebar = <Sidebar user={user} onNavigate={() => setMobileOpen(false)} onLogout={signOut} />;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <AppBar
        position="fixed"
        color="inherit"
        elevation={0}
        sx={{ zIndex: (th) => (isDesktop ? th.zIndex.drawer + 1 : th.zIndex.appBar), borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar>
          {!isDesktop && (
            <IconButton edge="start" onClick={() => setMobileOpen(true)} aria-label={t('nav.openMenu')} sx={{ mr: 1 }}>
              <MenuIcon />
            </IconButton>
          )}
          <Brand />
          <Box sx={{ flex: 1 }} />
          {/* Onboarding-only mode: no bell or profile link, whose pages would show onboarding again. */}
          {user.hasActiveSubscription && <NotificationBell />}
          <Box
            {...(user.hasActiveSubscription ? { component: RouterLink, to: '/profile' } : {})}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
          >
            <Typography variant="body2" sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 500 }}>
              {user.name}
            </Typography>
            <Avatar src={user.avatarUrl} alt="" aria-hidden sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 15 }}>
              {user.name.trim().charAt(0).toUpperCase()}
            </Avatar>
            {/* The link's name is its visible text plus this (WCAG 2.5.3: no aria-label that hides the name). */}
            {user.hasActiveSubscription && (
              <VisuallyHidden>{t('nav.account')}</VisuallyHidden>
            )}
          </Box>
        </Toolbar>
      </AppBar>
      {isDesktop ? (
        <Drawer
          variant="permanent"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', borderRight: 1, borderColor: 'divider' },
          }}
        >
          <Toolbar />
          {sidebar}
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: false }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
        >
          <Toolbar>
            <Brand />
          </Toolbar>
          {sidebar}
        </Drawer>
      )}
      {/* The skip link's target: focusable by script only (tabIndex -1), no ring around the whole page. */}
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3, md: 4 }, '&:focus': { outline: 'none' } }}>
        <Toolbar />
        {children}
      </Box>
    </Box>
  );
}
