/**
 * The route table (SPEC §2). Every page is lazy so the login route downloads only what it uses.
 * Pages of later issues are placeholders behind their routes.
 */
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { FullPageSpinner } from '../shared/FullPageSpinner';
import { RequireAccess, VisitorOnly } from './RouteGuards';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));
const LegalPage = lazy(() => import('../features/legal/LegalPage'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage'));
const SubscriptionPage = lazy(() => import('../features/billing/SubscriptionPage'));
const PaymentSuccessPage = lazy(() => import('../features/billing/PaymentSuccessPage'));
const ContactsPage = lazy(() => import('../features/contacts/ContactsPage'));
const ContactDetailPage = lazy(() => import('../features/contacts/ContactDetailPage'));
const IntegrationsPage = lazy(() => import('../features/integrations/IntegrationsPage'));
const AgentsPage = lazy(() => import('../features/agents/AgentsPage'));
const AgentDetailPage = lazy(() => import('../features/agents/AgentDetailPage'));
const ConversationsPage = lazy(() => import('../features/conversations/ConversationsPage'));
const MessagesPage = lazy(() => import('../features/messages/MessagesPage'));
const VoiceConversationsPage = lazy(() => import('../features/voice/VoiceConversationsPage'));
const VoiceConversationDetailPage = lazy(() => import('../features/voice/VoiceConversationDetailPage'));
const VoiceSettingsPage = lazy(() => import('../features/voice/settings/VoiceSettingsPage'));
const AdminPage = lazy(() => import('../features/admin/AdminPage'));
const ApiKeysPage = lazy(() => import('../features/api-keys/ApiKeysPage'));
const BookingsCalendarPage = lazy(() => import('../features/bookings/calendar/BookingsCalendarPage'));
const BookingSetupPage = lazy(() => import('../features/bookings/setup/BookingSetupPage'));
const TeamPage = lazy(() => import('../features/team/TeamPage'));
const ActivityPage = lazy(() => import('../features/team/ActivityPage'));
const InvitationPage = lazy(() => import('../features/team/InvitationPage'));
const PrivacyPage = lazy(() => import('../features/privacy/PrivacyPage'));
const AccountDeletedPage = lazy(() => import('../features/privacy/AccountDeletedPage'));
const PlaceholderPage = lazy(() => import('../shared/PlaceholderPage'));
const NotFoundPage = lazy(() => import('../shared/NotFoundPage'));

/** Routes whose real pages come with later issues: path → title key. */
const placeholderRoutes: ReadonlyArray<readonly [path: string, titleKey: string]> = [];

export function AppRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route element={<VisitorOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
        </Route>
        {/* Linked from the register form's terms checkbox; open to every audience. */}
        <Route path="/terms" element={<LegalPage kind="terms" />} />
        <Route path="/privacy" element={<LegalPage kind="privacy" />} />
        {/* An invitation's link (issue 32): for visitors and for the signed-in, before any account's access rules. */}
        <Route path="/invite/:token" element={<InvitationPage />} />
        {/* Issue 33: after the owner asks to delete the account (signed out by then). */}
        <Route path="/account-deleted" element={<AccountDeletedPage />} />
        <Route element={<RequireAccess />}>
          <Route path="/" element={<DashboardPage />} />
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/subscription" element={<SubscriptionPage />} />
          <Route path="/subscription/success" element={<PaymentSuccessPage />} />
          <Route path="/contacts" element={<ContactsPage />} />
          <Route path="/contacts/:id" element={<ContactDetailPage />} />
          <Route path="/bookings" element={<BookingsCalendarPage />} />
          <Route path="/bookings/setup" element={<BookingSetupPage />} />
          <Route path="/integrations" element={<IntegrationsPage />} />
          <Route path="/api-keys" element={<ApiKeysPage />} />
          <Route path="/agents" element={<AgentsPage />} />
          <Route path="/agents/:id" element={<AgentDetailPage />} />
          <Route path="/conversations" element={<ConversationsPage />} />
          <Route path="/messages" element={<MessagesPage />} />
          <Route path="/voice-conversations" element={<VoiceConversationsPage />} />
          <Route path="/voice-conversations/:id" element={<VoiceConversationDetailPage />} />
          <Route path="/voice-settings" element={<VoiceSettingsPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/team" element={<TeamPage />} />
          <Route path="/activity" element={<ActivityPage />} />
          {/* Issue 33: the account's privacy settings and data requests (/privacy is the public policy). */}
          <Route path="/privacy-settings" element={<PrivacyPage />} />
          {placeholderRoutes.map(([path, titleKey]) => (
            <Route key={path} path={path} element={<PlaceholderPage titleKey={titleKey} />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
