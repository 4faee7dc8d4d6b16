/**
 * A contact's privacy (issue 33): whether they receive reminders and messages (their opt-out, which
 * any member may set or clear), and, for admins and the owner, "Borrar todos sus datos" and
 * "Exportar sus datos" (the shared dialogs). Once the erasure is done the contact is gone: back to
 * the list, saying so.
 */
import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { roleAtLeast, type Contact } from '@agentdesk/functions/contract';
import { DetailSection } from '../../shared/DetailSection';
import { useMemberRole } from '../../shared/memberRole';
import { useToast } from '../../shared/useToast';
import { OptOutControl } from '../../shared/privacy/OptOutControl';
import { optOutOf } from '../../shared/privacy/optOut';
import { ErasePersonDialog, ExportPersonDialog } from '../../shared/privacy/PersonDataDialogs';
import { contactKeys } from './queries';

export function ContactPrivacySection({ contact, name }: { contact: Contact; name: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const admin = roleAtLeast(useMemberRole(), 'admin');
  const [open, setOpen] = useState<'erase' | 'export' | null>(null);
  const person = { contactId: contact._id };

  const onErased = useCallback(() => {
    queryClient.removeQueries({ queryKey: contactKeys.detail(contact._id) });
    void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    toast.success(t('privacy.job.goneToList'));
    navigate('/contacts', { replace: true });
  }, [contact._id, navigate, queryClient, t, toast]);

  return (
    <DetailSection title={t('privacy.contact.section')}>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('privacy.contact.optOutTitle')}
      </Typography>
      <Box sx={{ pb: 2 }}>
        <OptOutControl
          person={person}
          optOut={optOutOf(contact)}
          onChanged={(optOut) => {
            queryClient.setQueryData<Contact>(contactKeys.detail(contact._id), (old) => (old ? ({ ...old, optOut } as Contact) : old));
            void queryClient.invalidateQueries({ queryKey: contactKeys.detail(contact._id) });
          }}
        />
      </Box>
      {admin && (
        <>
          <Divider />
          <Stack spacing={1} sx={{ pt: 2, alignItems: 'flex-start' }}>
            <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => setOpen('export')}>
              {t('privacy.contact.export')}
            </Button>
            <Button variant="outlined" color="error" startIcon={<DeleteForeverOutlined />} onClick={() => setOpen('erase')}>
              {t('privacy.contact.erase')}
            </Button>
          </Stack>
          <ErasePersonDialog open={open === 'erase'} person={person} label={name} onClose={() => setOpen(null)} onErased={onErased} />
          <ExportPersonDialog open={open === 'export'} person={person} label={name} onClose={() => setOpen(null)} />
        </>
      )}
    </DetailSection>
  );
}
