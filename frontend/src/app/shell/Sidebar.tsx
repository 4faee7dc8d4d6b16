import { useState } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { User } from '@agentdesk/functions/contract';
import { isActivePath, navigationFor, type NavLink } from './navigation';
import { useMemberRole } from '../../shared/memberRole';

interface SidebarProps {
  user: User;
  onNavigate?: () => void;
  onLogout: () => void;
}

export function Sidebar({ user, onNavigate, onLogout }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const role = useMemberRole();
  // Groups start expanded; each collapses and expands on its own.
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});

  const renderLink = (item: NavLink, nested: boolean) => {
    const Icon = item.icon;
    const active = isActivePath(item.to, pathname);
    return (
      <ListItemButton
        key={item.id}
        component={RouterLink}
        to={item.to}
        selected={active}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        data-testid={`nav-${item.id}`}
        sx={{ pl: nested ? 4 : 2, mb: 0.25 }}
      >
        <ListItemIcon sx={{ minWidth: 36 }}>
          <Icon />
        </ListItemIcon>
        <ListItemText primary={t(item.labelKey)} />
      </ListItemButton>
    );
  };

  return (
    // Below the drawer's toolbar: the links scroll inside their own box so "Log out" stays in view
    // whatever the screen's height (issue 29: it was pushed below a 1366×768 screen).
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <Box component="nav" aria-label={t('nav.label')} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: 1.5, py: 1 }}>
        <List component="div" disablePadding>
          {navigationFor(user, role).map((entry) => {
            if (entry.kind === 'link') return renderLink(entry, false);
            const open = !collapsed[entry.id];
            const Icon = entry.icon;
            const listId = `nav-group-${entry.id}-items`;
            return (
              <Box key={entry.id}>
                <ListItemButton
                  onClick={() => setCollapsed((c) => ({ ...c, [entry.id]: open }))}
                  aria-expanded={open}
                  aria-controls={listId}
                  data-testid={`nav-group-${entry.id}`}
                  sx={{ mb: 0.25 }}
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Icon />
                  </ListItemIcon>
                  <ListItemText primary={t(entry.labelKey)} />
                  {open ? <ExpandLess aria-hidden /> : <ExpandMore aria-hidden />}
                </ListItemButton>
                <Collapse in={open} timeout="auto" unmountOnExit>
                  <List component="div" id={listId} disablePadding>
                    {entry.children.map((child) => renderLink(child, true))}
                  </List>
                </Collapse>
              </Box>
            );
          })}
        </List>
      </Box>
      <Divider />
      <List component="div" sx={{ px: 1.5 }}>
        <ListItemButton onClick={onLogout} data-testid="nav-logout">
          <ListItemIcon sx={{ minWidth: 36 }}>
            <LogoutOutlined />
          </ListItemIcon>
          <ListItemText primary={t('nav.logout')} />
        </ListItemButton>
      </List>
    </Box>
  );
}
