/** The services tab: a table (name, duration and buffer, price in the account's currency, who does it, bookable by the agent), add, edit, delete. */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, bookingMessages, type BookingService, type BookingStaff } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { EmptyPanel } from '../../../shared/EmptyPanel';
import { VisuallyHidden } from '../../../shared/VisuallyHidden';
import { useToast } from '../../../shared/useToast';
import { useDeleteService } from '../api';
import { bookingErrorText, translateBookingText } from '../messages';
import { formatMinutes, formatPriceCents } from './format';
import { ServiceDialog } from './ServiceDialog';
import './i18n';

interface ServicesSectionProps {
  services: BookingService[];
  staff: BookingStaff[];
  currency: string;
}

export function ServicesSection({ services, staff, currency }: ServicesSectionProps) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [editing, setEditing] = useState<BookingService | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BookingService | null>(null);
  const remove = useDeleteService();
  const staffName = new Map(staff.map((s) => [s._id, s.name]));
  const atLimit = services.length >= BOOKING_LIMITS.servicesPerUser;

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const env = await remove.mutateAsync(deleting._id);
      toast.success(translateBookingText(env.message || bookingMessages.serviceDeleted));
      setDeleting(null);
    } catch (err) {
      toast.error(bookingErrorText(err, t('bookingSetup.common.deleteFailed')));
    }
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')} disabled={staff.length === 0 || atLimit}>
      {t('bookingSetup.services.add')}
    </Button>
  );

  return (
    <Box>
      {staff.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('bookingSetup.services.needStaff')}
        </Alert>
      )}
      {atLimit && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translateBookingText(bookingMessages.tooManyServices)}
        </Alert>
      )}
      {services.length === 0 ? (
        <EmptyPanel card icon={<MedicalServicesOutlined color="disabled" sx={{ fontSize: 40, mb: 1 }} />} title={t('bookingSetup.services.empty')} body={t('bookingSetup.services.emptyHint')} sx={{ p: 4 }}>
          {addButton}
        </EmptyPanel>
      ) : (
        <>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>{addButton}</Box>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={t('bookingSetup.tabs.services')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('bookingSetup.services.columns.name')}</TableCell>
                  <TableCell>{t('bookingSetup.services.columns.duration')}</TableCell>
                  <TableCell align="right">{t('bookingSetup.services.columns.price')}</TableCell>
                  <TableCell>{t('bookingSetup.services.columns.staff')}</TableCell>
                  <TableCell>{t('bookingSetup.services.columns.agent')}</TableCell>
                  <TableCell align="right">
                    <VisuallyHidden>{t('bookingSetup.common.edit')}</VisuallyHidden>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {services.map((s) => (
                  <TableRow key={s._id} data-testid="booking-service">
                    <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{s.name}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatMinutes(i18n.language, s.durationMinutes)}
                      {s.bufferAfterMinutes > 0 && (
                        <Box component="span" sx={{ color: 'text.secondary', ml: 1 }}>
                          {t('bookingSetup.services.bufferAfter', { minutes: formatMinutes(i18n.language, s.bufferAfterMinutes) })}
                        </Box>
                      )}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {formatPriceCents(i18n.language, s.priceCents, currency) ?? t('bookingSetup.services.noPrice')}
                    </TableCell>
                    <TableCell>{s.staffIds.map((id) => staffName.get(id)).filter(Boolean).join(', ')}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={s.bookableByAgent ? 'success' : 'default'} label={s.bookableByAgent ? t('bookingSetup.services.agentYes') : t('bookingSetup.services.agentNo')} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={t('bookingSetup.common.edit')}>
                        <IconButton aria-label={t('bookingSetup.services.editLabel', { name: s.name })} onClick={() => setEditing(s)}>
                          <EditOutlined />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('bookingSetup.common.delete')}>
                        <IconButton color="error" aria-label={t('bookingSetup.services.deleteLabel', { name: s.name })} onClick={() => setDeleting(s)}>
                          <DeleteOutline />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
      <ServiceDialog
        open={editing !== null}
        service={editing === 'new' ? null : editing}
        staff={staff}
        currency={currency}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('bookingSetup.services.deleteTitle')}
        body={t('bookingSetup.services.deleteBody')}
        subject={deleting?.name}
        confirmLabel={t('bookingSetup.common.delete')}
        pendingLabel={t('bookingSetup.common.deleting')}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Box>
  );
}
