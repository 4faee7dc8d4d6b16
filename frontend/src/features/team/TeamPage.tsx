/**
 * /team (Settings → Team, issue 32): the account's members with their roles, the seats in use,
 * the pending invitations (resend, cancel), role changes and removal for owners and admins,
 * leaving for everyone but the owner, and the owner's transfer of ownership to an admin.
 */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ASSIGNABLE_ROLES, roleAtLeast, type AssignableRole, type Invitation, type Member, type MemberRole, type TeamView } from '@agentdesk/functions/contract';
import { teamApi, teamKeys } from '../../api/team';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { PageHeader } from '../../shared/PageHeader';
import { RetryAlert } from '../../shared/RetryAlert';
import { formatDate } from '../../shared/intl';
import { usePageTitle } from '../../shared/usePageTitle';
import { useToast } from '../../shared/useToast';
import { useCurrentUser } from '../../shared/session';
import './i18n';
import { InviteDialog } from './InviteDialog';
import { TransferOwnershipDialog } from './TransferOwnershipDialog';
import { teamErrorText, teamText } from './messages';
import { useRefreshAccount } from './useRefreshAccount';

type Pending = { action: 'remove'; member: Member } | { action: 'revoke'; invitation: Invitation } | { action: 'leave' };

export function RoleChip({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  return <Chip size="small" label={t(`team.roles.${role}`)} color={role === 'owner' ? 'primary' : role === 'admin' ? 'secondary' : 'default'} variant={role === 'agent' ? 'outlined' : 'filled'} />;
}

function MembersTable({ team, onRemove, onRole, busy }: { team: TeamView; onRemove: (m: Member) => void; onRole: (m: Member, role: AssignableRole) => void; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const manages = roleAtLeast(team.you.role, 'admin');
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('team.members.heading')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('team.members.name')}</TableCell>
            <TableCell>{t('team.members.role')}</TableCell>
            <TableCell>{t('team.members.joined')}</TableCell>
            {manages && <TableCell align="right">{t('team.members.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {team.members.map((member) => {
            const isYou = member._id === team.you._id;
            // The owner's role moves only by transfer; nobody changes their own.
            const editable = manages && !isYou && member.role !== 'owner';
            return (
              <TableRow key={member._id} data-testid={`member-${member._id}`}>
                <TableCell>
                  <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {member.name}
                    {isYou && (
                      <Typography component="span" color="text.secondary" sx={{ ml: 0.5 }}>
                        {t('team.you')}
                      </Typography>
                    )}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {member.email}
                  </Typography>
                </TableCell>
                <TableCell>
                  {editable ? (
                    <TextField
                      select
                      size="small"
                      value={member.role}
                      disabled={busy}
                      onChange={(e) => onRole(member, e.target.value as AssignableRole)}
                      slotProps={{ htmlInput: { 'aria-label': t('team.members.changeRole', { name: member.name }) } }}
                      sx={{ minWidth: 160 }}
                    >
                      {ASSIGNABLE_ROLES.map((role) => (
                        <MenuItem key={role} value={role}>
                          {t(`team.roles.${role}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  ) : (
                    <RoleChip role={member.role} />
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i18n.language, member.joinedAt, 'date') ?? '—'}</TableCell>
                {manages && (
                  <TableCell align="right">
                    {editable && (
                      <Tooltip title={t('team.members.remove')}>
                        <IconButton color="error" aria-label={t('team.members.removeLabel', { name: member.name })} onClick={() => onRemove(member)}>
                          <PersonRemoveOutlined />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function InvitationsList({ invitations, onResend, onRevoke, resending }: { invitations: Invitation[]; onResend: (i: Invitation) => void; onRevoke: (i: Invitation) => void; resending: string | null }) {
  const { t, i18n } = useTranslation();
  const pending = invitations.filter((invitation) => invitation.state === 'pending');
  if (pending.length === 0) return <Typography color="text.secondary">{t('team.invitations.empty')}</Typography>;
  return (
    <Stack spacing={1}>
      {pending.map((invitation) => (
        <Paper key={invitation._id} variant="outlined" sx={{ p: 1.5 }} data-testid={`invitation-${invitation._id}`}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{invitation.email}</Typography>
              <Typography variant="body2" color="text.secondary">
                {t('team.invitations.expires', { date: formatDate(i18n.language, invitation.expiresAt) ?? '—' })} · {t('team.invitations.invitedBy', { name: invitation.invitedBy.name })}
              </Typography>
            </Box>
            <RoleChip role={invitation.role} />
            <Button size="small" startIcon={<SendOutlined />} disabled={resending === invitation._id} onClick={() => onResend(invitation)} aria-label={t('team.invitations.resendLabel', { email: invitation.email })}>
              {t('team.invitations.resend')}
            </Button>
            <Button size="small" color="error" startIcon={<CloseOutlined />} onClick={() => onRevoke(invitation)} aria-label={t('team.invitations.cancelLabel', { email: invitation.email })}>
              {t('team.invitations.cancel')}
            </Button>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

export default function TeamPage() {
  const { t } = useTranslation();
  usePageTitle(t('team.title'));
  const user = useCurrentUser();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refreshAccount = useRefreshAccount();
  const [inviting, setInviting] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [resending, setResending] = useState<string | null>(null);
  const team = useQuery({ queryKey: teamKeys.view, queryFn: ({ signal }) => teamApi.get(signal) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: teamKeys.all });

  const roleChange = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: AssignableRole }) => teamApi.changeRole(member._id, role),
    onSuccess: (env) => toast.success(teamText(env.message, t('team.roleChanged'))),
    onError: (err) => toast.error(teamErrorText(err, t('team.roleChangeFailed'))),
    onSettled: invalidate,
  });
  const act = useMutation({
    mutationFn: (p: Pending) => (p.action === 'remove' ? teamApi.remove(p.member._id) : p.action === 'revoke' ? teamApi.revokeInvitation(p.invitation._id) : teamApi.leave()),
    onSettled: invalidate,
  });

  const resend = async (invitation: Invitation) => {
    setResending(invitation._id);
    try {
      const env = await teamApi.resendInvitation(invitation._id);
      toast.success(teamText(env.message, t('team.invitations.resent')));
    } catch (err) {
      toast.error(teamErrorText(err, t('team.invitations.resendFailed')));
    } finally {
      setResending(null);
      void invalidate();
    }
  };

  const failedKey = { remove: 'team.removeDialog.failed', revoke: 'team.invitations.cancelDialog.failed', leave: 'team.leave.failed' } as const;
  const confirm = async () => {
    if (!pending) return;
    try {
      const env = await act.mutateAsync(pending);
      setPending(null);
      toast.success(teamText(env.message, t(pending.action === 'revoke' ? 'team.invitations.cancelDialog.confirm' : 'team.members.remove')));
      if (pending.action === 'leave' && (await refreshAccount())) navigate('/', { replace: true });
    } catch (err) {
      toast.error(teamErrorText(err, t(failedKey[pending.action])));
    }
  };

  let body: ReactNode;
  if (team.isPending) {
    body = <Skeleton variant="rounded" height={240} role="status" aria-busy="true" aria-label={t('team.loading')} />;
  } else if (team.isError) {
    body = (
      <RetryAlert retryLabel={t('team.retry')} onRetry={() => void team.refetch()} retrying={team.isFetching}>
        {teamErrorText(team.error, t('team.loadFailed'))}
      </RetryAlert>
    );
  } else {
    const view = team.data;
    const manages = roleAtLeast(view.you.role, 'admin');
    body = (
      <Stack spacing={3}>
        <Box component="section" aria-labelledby="team-members-heading">
          <Typography id="team-members-heading" variant="h6" component="h2" gutterBottom>
            {t('team.members.heading')}
          </Typography>
          <MembersTable team={view} busy={roleChange.isPending} onRemove={(member) => setPending({ action: 'remove', member })} onRole={(member, role) => roleChange.mutate({ member, role })} />
          {view.members.length <= 1 && (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {t('team.members.alone')}
            </Typography>
          )}
        </Box>
        {manages && (
          <Box component="section" aria-labelledby="team-invitations-heading">
            <Typography id="team-invitations-heading" variant="h6" component="h2" gutterBottom>
              {t('team.invitations.heading')}
            </Typography>
            <InvitationsList invitations={view.invitations} resending={resending} onResend={(i) => void resend(i)} onRevoke={(invitation) => setPending({ action: 'revoke', invitation })} />
          </Box>
        )}
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          {view.you.role === 'owner' ? (
            <Button variant="outlined" color="warning" onClick={() => setTransferring(true)}>
              {t('team.transfer.button')}
            </Button>
          ) : (
            <Button variant="outlined" color="error" onClick={() => setPending({ action: 'leave' })}>
              {t('team.leave.button')}
            </Button>
          )}
        </Stack>
        <InviteDialog open={inviting} onClose={() => setInviting(false)} seats={view.seats} yourRole={view.you.role} />
        <TransferOwnershipDialog open={transferring} onClose={() => setTransferring(false)} members={view.members} onTransferred={refreshAccount} />
      </Stack>
    );
  }

  const accountName = user.accountName || (team.data?.members.find((m) => m.role === 'owner')?.name ?? '');
  const dialog =
    pending?.action === 'remove'
      ? { title: t('team.removeDialog.title', { name: pending.member.name }), body: t('team.removeDialog.body', { name: pending.member.name }), subject: pending.member.email, confirm: t('team.removeDialog.confirm'), pendingLabel: t('team.removeDialog.pending') }
      : pending?.action === 'revoke'
        ? { title: t('team.invitations.cancelDialog.title'), body: t('team.invitations.cancelDialog.body'), subject: pending.invitation.email, confirm: t('team.invitations.cancelDialog.confirm'), pendingLabel: t('team.invitations.cancelDialog.pending') }
        : { title: t('team.leave.title'), body: t('team.leave.body', { account: accountName }), subject: undefined, confirm: t('team.leave.confirm'), pendingLabel: t('team.leave.pending') };

  const seats = team.data?.seats;
  return (
    <Box>
      <PageHeader title={t('team.title')} subtitle={t('team.subtitle')} align="flex-end">
        {team.data && roleAtLeast(team.data.you.role, 'admin') && (
          <Stack spacing={0.5} sx={{ alignItems: { sm: 'flex-end' } }}>
            <Button variant="contained" startIcon={<PersonAddAlt1Outlined />} onClick={() => setInviting(true)}>
              {t('team.invite')}
            </Button>
            {seats && (
              <Typography variant="body2" color={seats.used >= seats.limit ? 'warning.main' : 'text.secondary'} data-testid="team-seats">
                {t('team.seats', { used: seats.used, limit: seats.limit })}
              </Typography>
            )}
          </Stack>
        )}
      </PageHeader>
      {body}
      <ConfirmDialog
        open={pending !== null}
        title={dialog.title}
        body={dialog.body}
        subject={dialog.subject}
        confirmLabel={dialog.confirm}
        pendingLabel={dialog.pendingLabel}
        pending={act.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </Box>
  );
}
