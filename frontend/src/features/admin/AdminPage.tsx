/**
 * /admin (SPEC §6: an admin assigns phone numbers; the screens are ours): the phone-number requests
 * of every user, filtered by status, with Approve (pending), Reject with an optional reason and
 * Assign Number (pending or approved; the user is e-mailed). Only users in the 'admin' group see
 * it in the sidebar; the server refuses everyone else (403), and so does this page.
 */
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
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
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  adminAssignRequest,
  adminRejectRequest,
  PHONE_REQUEST_STATUSES,
  type PhoneRequestAdminView,
  type PhoneRequestStatus,
} from '@agentdesk/functions/contract';
import { adminApi, adminKeys } from '../../api/admin';
import { useCurrentUser } from '../../shared/session';
import { RetryAlert } from '../../shared/RetryAlert';
import { usePageTitle } from '../../shared/usePageTitle';
import { useToast } from '../../shared/useToast';
import './i18n';
import { allowedActions, type AdminAction } from './actions';
import { adminErrorText, translateAdminText } from './messages';
import { formatDate } from '../../shared/intl';
import { PHONE_STATUS_COLOR } from '../../shared/phoneRequestStatus';
import { FormDialogActions } from '../../shared/FormDialogActions';
import { PageHeader } from '../../shared/PageHeader';

interface Pending {
  action: 'reject' | 'assign';
  row: PhoneRequestAdminView;
}

function useAdminAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, userId, value }: { action: AdminAction; userId: string; value: string }) => {
      if (action === 'approve') return adminApi.approve(userId);
      if (action === 'reject') return adminApi.reject(userId, value);
      return adminApi.assign(userId, value);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** The reject (reason) and assign (number) dialog. */
function ActionDialog({ pending, onClose }: { pending: Pending | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const run = useAdminAction();
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const action = pending?.action ?? 'reject';
  const name = pending?.row.userName || pending?.row.userEmail || '';

  const close = () => {
    if (run.isPending) return;
    setValue('');
    setError('');
    onClose();
  };
  const submit = async () => {
    if (!pending) return;
    const parsed = action === 'assign' ? adminAssignRequest.safeParse({ number: value }) : adminRejectRequest.safeParse({ reason: value });
    if (!parsed.success) {
      setError(translateAdminText(parsed.error.issues[0]?.message));
      return;
    }
    try {
      const clean = 'number' in parsed.data ? parsed.data.number : parsed.data.reason;
      const env = await run.mutateAsync({ action, userId: pending.row.userId, value: clean });
      toast.success(translateAdminText(env.message) || t(`admin.${action}`));
      setValue('');
      setError('');
      onClose();
    } catch (err) {
      toast.error(adminErrorText(err, t('admin.actionFailed')));
    }
  };

  return (
    <Dialog open={pending !== null} onClose={close} maxWidth="xs" fullWidth aria-labelledby="admin-action-title">
      <DialogTitle id="admin-action-title">{action === 'assign' ? t('admin.assignTitle', { name }) : t('admin.rejectTitle', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{action === 'assign' ? t('admin.assignBody') : t('admin.rejectBody')}</DialogContentText>
        <Box component="form" id="admin-action-form" noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
          {action === 'assign' ? (
            <TextField
              label={t('admin.number')}
              type="tel"
              required
              fullWidth
              autoFocus
              placeholder="+14155550123"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={Boolean(error)}
              helperText={error || t('admin.numberHint')}
            />
          ) : (
            <TextField
              label={t('admin.reason')}
              fullWidth
              multiline
              minRows={2}
              autoFocus
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={Boolean(error)}
              helperText={error || t('admin.reasonHint')}
            />
          )}
        </Box>
      </DialogContent>
      <FormDialogActions
        cancelLabel={t('admin.cancel')}
        submitLabel={action === 'assign' ? t('admin.assign') : t('admin.reject')}
        pendingLabel={t('admin.saving')}
        pending={run.isPending}
        onCancel={close}
        form="admin-action-form"
        color={action === 'reject' ? 'error' : 'primary'}
      />
    </Dialog>
  );
}

function RequestsTable({ rows, onAsk }: { rows: PhoneRequestAdminView[]; onAsk: (p: Pending) => void }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const run = useAdminAction();

  const approve = async (row: PhoneRequestAdminView) => {
    try {
      const env = await run.mutateAsync({ action: 'approve', userId: row.userId, value: '' });
      toast.success(translateAdminText(env.message) || t('admin.approve'));
    } catch (err) {
      toast.error(adminErrorText(err, t('admin.actionFailed')));
    }
  };

  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('admin.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('admin.columns.user')}</TableCell>
            <TableCell>{t('admin.columns.status')}</TableCell>
            <TableCell>{t('admin.columns.requestedAt')}</TableCell>
            <TableCell>{t('admin.columns.notes')}</TableCell>
            <TableCell>{t('admin.columns.number')}</TableCell>
            <TableCell align="right">{t('admin.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const status = row.request.status;
            const actions = allowedActions(status);
            return (
              <TableRow key={row.userId} data-testid={`phone-request-${row.userId}`}>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {row.userName || '—'}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {row.userEmail}
                  </Typography>
                </TableCell>
                <TableCell>{status && <Chip size="small" color={PHONE_STATUS_COLOR[status]} label={t(`admin.statuses.${status}`)} />}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i18n.language, row.request.requestedAt) ?? '—'}</TableCell>
                <TableCell sx={{ maxWidth: 260, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {row.request.notes || '—'}
                  {status === 'rejected' && row.request.rejectionReason && (
                    <Typography variant="caption" color="error" component="div">
                      {t('admin.reason')}: {row.request.rejectionReason}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.request.number ?? '—'}</TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }} useFlexGap>
                    {actions.includes('approve') && (
                      <Button size="small" variant="outlined" onClick={() => void approve(row)} disabled={run.isPending}>
                        {t('admin.approve')}
                      </Button>
                    )}
                    {actions.includes('assign') && (
                      <Button size="small" variant="contained" onClick={() => onAsk({ action: 'assign', row })}>
                        {t('admin.assign')}
                      </Button>
                    )}
                    {actions.includes('reject') && (
                      <Button size="small" color="error" onClick={() => onAsk({ action: 'reject', row })}>
                        {t('admin.reject')}
                      </Button>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export default function AdminPage() {
  const { t } = useTranslation();
  usePageTitle(t('admin.title'));
  const user = useCurrentUser();
  const isAdmin = user.role === 'admin';
  const [status, setStatus] = useState<PhoneRequestStatus | ''>('');
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useQuery({
    queryKey: adminKeys.phoneRequests(status),
    queryFn: ({ signal }) => adminApi.phoneRequests(status, signal),
    enabled: isAdmin,
  });

  let body: ReactNode;
  if (!isAdmin) {
    body = <Alert severity="warning">{t('admin.notAdmin')}</Alert>;
  } else if (list.isPending) {
    body = <Skeleton variant="rounded" height={240} role="status" aria-busy="true" aria-label={t('admin.loading')} />;
  } else if (list.isError) {
    body = (
      <RetryAlert retryLabel={t('admin.retry')} onRetry={() => void list.refetch()}>
        {adminErrorText(list.error, t('admin.loadFailed'))}
      </RetryAlert>
    );
  } else if (list.data.length === 0) {
    body = (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{t('admin.empty')}</Typography>
      </Paper>
    );
  } else {
    body = <RequestsTable rows={list.data} onAsk={setPending} />;
  }

  return (
    <Box>
      <PageHeader title={t('admin.title')} subtitle={t('admin.subtitle')} align="flex-end">
        {isAdmin && (
          <TextField
            select
            size="small"
            label={t('admin.filter')}
            value={status}
            onChange={(e) => setStatus(e.target.value as PhoneRequestStatus | '')}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{t('admin.all')}</MenuItem>
            {PHONE_REQUEST_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`admin.statuses.${s}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      </PageHeader>
      {isAdmin && list.data && list.data.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('admin.count', { count: list.data.length })}
        </Typography>
      )}
      {body}
      <ActionDialog pending={pending} onClose={() => setPending(null)} />
    </Box>
  );
}
