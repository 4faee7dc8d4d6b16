import type { ComponentType } from 'react';
import { roleAtLeast, type MemberRole, type User } from '@agentdesk/functions/contract';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import CallReceivedOutlined from '@mui/icons-material/CallReceivedOutlined';
import SettingsPhoneOutlined from '@mui/icons-material/SettingsPhoneOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import EventOutlined from '@mui/icons-material/EventOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import { pageRole } from '../../shared/memberRole';
import { ONBOARDING_PATH } from '../guards';

export interface NavLink {
  kind: 'link';
  id: string;
  labelKey: string;
  to: string;
  icon: ComponentType;
  /** Shown only when this returns true. */
  visible?: (user: User) => boolean;
}

export interface NavGroup {
  kind: 'group';
  id: string;
  labelKey: string;
  icon: ComponentType;
  children: NavLink[];
  /** Shown only when this returns true. */
  visible?: (user: User) => boolean;
}

export type NavEntry = NavLink | NavGroup;

const link = (id: string, labelKey: string, to: string, icon: ComponentType): NavLink => ({ kind: 'link', id, labelKey, to, icon });

/** The sidebar of SPEC §2, top to bottom (Logout is rendered after these). */
export const navigation: NavEntry[] = [
  link('dashboard', 'nav.dashboard', '/', DashboardOutlined),
  link('agents', 'nav.agents', '/agents', SmartToyOutlined),
  {
    kind: 'group',
    id: 'voice',
    labelKey: 'nav.voice',
    icon: PhoneInTalkOutlined,
    children: [
      link('voice-inbound', 'nav.inbound', '/voice-conversations', CallReceivedOutlined),
      link('voice-settings', 'nav.voiceSettings', '/voice-settings', SettingsPhoneOutlined),
    ],
  },
  {
    kind: 'group',
    id: 'whatsapp',
    labelKey: 'nav.whatsapp',
    icon: WhatsApp,
    children: [
      link('conversations', 'nav.conversations', '/conversations', ForumOutlined),
      link('message-hub', 'nav.messageHub', '/messages', ChatOutlined),
    ],
    // Every subscribed account's, unless the operator set a rollout list on the server (issue 29 item 7): the user says whether it applies.
    visible: (user) => user.features?.whatsapp === true,
  },
  link('contacts', 'nav.contacts', '/contacts', ContactsOutlined),
  link('bookings', 'nav.bookings', '/bookings', EventOutlined),
  {
    kind: 'group',
    id: 'settings',
    labelKey: 'nav.settings',
    icon: SettingsOutlined,
    children: [
      link('integrations', 'nav.integrations', '/integrations', ExtensionOutlined),
      link('api-keys', 'nav.apiKeys', '/api-keys', VpnKeyOutlined),
      link('profile', 'nav.profile', '/profile', PersonOutline),
      link('team', 'nav.team', '/team', GroupsOutlined),
      link('activity', 'nav.activity', '/activity', HistoryOutlined),
      link('privacy', 'nav.privacy', '/privacy-settings', PrivacyTipOutlined),
      link('subscription', 'nav.subscription', '/subscription', CreditCardOutlined),
    ],
  },
  // Beyond the spec (SPEC §6: an admin assigns phone numbers): only for the Cognito 'admin' group.
  { ...link('admin', 'nav.admin', '/admin', AdminPanelSettingsOutlined), visible: (user) => user.role === 'admin' },
];

/**
 * Onboarding-only mode (SPEC §1: without an active subscription only onboarding and the plan
 * choice): every other page would show onboarding again, so the sidebar offers only these (and Logout).
 */
export const onboardingNavigation: NavEntry[] = [
  link('onboarding', 'nav.onboarding', ONBOARDING_PATH, RocketLaunchOutlined),
  link('subscription', 'nav.subscription', '/subscription', CreditCardOutlined),
];

/**
 * The sidebar entries this user can open (before Logout). Issue 32: a link shows only to a role
 * that may open its page (shared/memberRole.ts's PAGE_ROLES, which the route guard also applies);
 * a group whose links are all hidden goes too.
 */
export function navigationFor(user: User, role: MemberRole = 'owner'): NavEntry[] {
  const entries = user.hasActiveSubscription ? navigation : onboardingNavigation;
  const opens = (to: string) => roleAtLeast(role, pageRole(to));
  return entries.flatMap((entry): NavEntry[] => {
    if (entry.visible && !entry.visible(user)) return [];
    if (entry.kind === 'link') return opens(entry.to) ? [entry] : [];
    const children = entry.children.filter((child) => opens(child.to));
    return children.length ? [{ ...entry, children }] : [];
  });
}

/** Whether a nav link is the current page (/ only exactly; others also for their sub-paths). */
export function isActivePath(to: string, pathname: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}
