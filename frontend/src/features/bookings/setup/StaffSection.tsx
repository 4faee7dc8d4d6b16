/** The staff and rooms tab: a card each (name, person or room, the week's hours in short, upcoming closures), add, edit (hours and closures), delete. */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, WEEKDAYS, bookingMessages, type BookingStaff } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { EmptyPanel } from '../../../shared/EmptyPanel';
import { useToast } from '../../../shared/useToast';
import { useDeleteStaff } from '../api';
import { bookingErrorText, translateBookingText } from '../messages';
import { hasHours, upcomingClosures } from './hours';
import { StaffDialog } from './StaffDialog';
import './i18n';

function WeekSummary({ member }: { member: BookingStaff }) {
  const { t } = useTranslation();
  if (!hasHours(member.weeklyHours)) return <Typography color="warning.main">{t('bookingSetup.hours.noHours')}</Typography>;
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.25, m: 0 }}>
      {WEEKDAYS.map((day) => (
        <Box key={day} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(`bookingSetup.days.${day}`)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {member.weeklyHours[day].length ? member.weeklyHours[day].map((r) => `${r.start}–${r.end}`).join(', ') : t('bookingSetup.hours.summaryClosed')}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export function StaffSection({ staff, today }: { staff: BookingStaff[]; today: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [editing, setEditing] = useState<BookingStaff | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BookingStaff | null>(null);
  const remove = useDeleteStaff();
  const atLimit = staff.length >= BOOKING_LIMITS.staffPerUser;

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const env = await remove.mutateAsync(deleting._id);
      toast.success(translateBookingText(env.message || bookingMessages.staffDeleted));
      setDeleting(null);
    } catch (err) {
      // E.g. "This staff member has 2 upcoming booking(s)…": said in the dialog's language, the dialog closes.
      toast.error(bookingErrorText(err, t('bookingSetup.common.deleteFailed')));
      setDeleting(null);
    }
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')} disabled={atLimit}>
      {t('bookingSetup.staff.add')}
    </Button>
  );

  return (
    <Box>
      {atLimit && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translateBookingText(bookingMessages.tooManyStaff)}
        </Alert>
      )}
      {staff.length === 0 ? (
        <EmptyPanel card icon={<PeopleOutline color="disabled" sx={{ fontSize: 40, mb: 1 }} />} title={t('bookingSetup.staff.empty')} body={t('bookingSetup.staff.emptyHint')} sx={{ p: 4 }}>
          {addButton}
        </EmptyPanel>
      ) : (
        <>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>{addButton}</Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {staff.map((member) => {
              const closures = upcomingClosures(member.closures, today).length;
              return (
                <Card key={member._id} variant="outlined" data-testid="booking-staff" component="section" aria-labelledby={`staff-${member._id}`}>
                  <CardContent>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                      <Typography id={`staff-${member._id}`} variant="h6" component="h2" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
                        {member.name}
                      </Typography>
                      <Chip size="small" label={t(`bookingSetup.staff.${member.kind}`)} />
                      <Tooltip title={t('bookingSetup.common.edit')}>
                        <IconButton aria-label={t('bookingSetup.staff.editLabel', { name: member.name })} onClick={() => setEditing(member)}>
                          <EditOutlined />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('bookingSetup.common.delete')}>
                        <IconButton color="error" aria-label={t('bookingSetup.staff.deleteLabel', { name: member.name })} onClick={() => setDeleting(member)}>
                          <DeleteOutline />
                        </IconButton>
                      </Tooltip>
                    </Stack>
                    <WeekSummary member={member} />
                    {closures > 0 && (
                      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                        {t('bookingSetup.staff.closuresCount', { count: closures })}
                      </Typography>
                    )}
                  </CardContent>
                </Card>
              );
            })}
          </Box>
        </>
      )}
      <StaffDialog open={editing !== null} staff={editing === 'new' ? null : editing} today={today} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('bookingSetup.staff.deleteTitle')}
        body={t('bookingSetup.staff.deleteBody')}
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
