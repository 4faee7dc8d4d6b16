/**
 * "Solicitudes de datos" (issue 33): a customer asks to see or erase what the business holds about
 * them, saved as a contact or not. Looked up by phone number (national form accepted: the account's
 * country reads it), what is stored is counted, then erased or exported with the shared dialogs.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRIVACY_PHONE_MAX, type PersonDataInventory, type PersonRefRequest } from '@agentdesk/functions/contract';
import { privacyApi } from '../../api/privacy';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../i18n';
import { formatPhone } from '../../shared/phone';
import { usePhoneFieldProps } from '../../shared/usePhoneFieldProps';
import { ErasePersonDialog, ExportPersonDialog } from '../../shared/privacy/PersonDataDialogs';
import { countsList } from '../../shared/privacy/strings';

/** Whether anything at all is stored (the server may answer zeros rather than 404). */
const holdsAnything = (inventory: PersonDataInventory) => Object.values(inventory.counts).some((n) => n > 0);

export function DataRequests() {
  const { t, i18n } = useTranslation();
  const phoneField = usePhoneFieldProps();
  const [phone, setPhone] = useState('');
  const [result, setResult] = useState<{ person: PersonRefRequest; inventory: PersonDataInventory | null } | null>(null);
  const [open, setOpen] = useState<'erase' | 'export' | null>(null);
  // Once erased, closing the dialog clears the look-up: there is nothing left to show.
  const [erased, setErased] = useState(false);
  const lookup = useMutation({
    mutationFn: (person: PersonRefRequest) => privacyApi.lookup(person),
    onSuccess: (inventory, person) => setResult({ person, inventory: holdsAnything(inventory) ? inventory : null }),
    // 404: nothing is stored about them (privacyMessages.personNotFound).
    onError: (err, person) => setResult(err instanceof ApiError && err.status === 404 ? { person, inventory: null } : null),
  });
  const inventory = result?.inventory ?? null;
  const label = inventory ? inventory.person.name || formatPhone(inventory.person.phoneNumber) || phone.trim() : phone.trim();
  // The dialogs name the person as the look-up found them: their contact, else the number typed.
  const person: PersonRefRequest = inventory?.person.contactId ? { contactId: inventory.person.contactId } : (result?.person ?? { phoneNumber: phone.trim() });

  return (
    <Stack spacing={2}>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!phone.trim()) return;
          setResult(null);
          lookup.mutate({ phoneNumber: phone.trim() });
        }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('privacy.requests.phone')}
            type="tel"
            autoComplete="off"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            placeholder={phoneField.placeholder}
            helperText={phoneField.helperText}
            slotProps={{ input: { startAdornment: phoneField.startAdornment }, htmlInput: { maxLength: PRIVACY_PHONE_MAX } }}
            sx={{ minWidth: { sm: 320 } }}
          />
          <Button type="submit" variant="contained" disabled={!phone.trim() || lookup.isPending} sx={{ mt: { sm: 1 } }}>
            {lookup.isPending ? t('privacy.requests.lookingUp') : t('privacy.requests.lookUp')}
          </Button>
        </Stack>
      </Box>
      {lookup.isError && !result && <Alert severity="error">{errorMessage(lookup.error, t('privacy.requests.lookupFailed'))}</Alert>}
      {result && !inventory && (
        <Alert severity="info" data-testid="privacy-lookup-nothing">
          {t('privacy.requests.nothing')}
        </Alert>
      )}
      {inventory && (
        <Box data-testid="privacy-lookup-result" sx={{ p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Typography>{t('privacy.requests.found', { person: label || t('privacy.requests.someone') })}</Typography>
          <Typography sx={{ fontWeight: 600, my: 1 }} data-testid="privacy-lookup-counts">
            {countsList(t, i18n.language, inventory.counts)}
          </Typography>
          {(inventory.active.conversation || inventory.active.call) && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {t('privacy.requests.active')}
            </Alert>
          )}
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => setOpen('export')}>
              {t('privacy.requests.export')}
            </Button>
            <Button variant="outlined" color="error" startIcon={<DeleteForeverOutlined />} onClick={() => setOpen('erase')}>
              {t('privacy.requests.erase')}
            </Button>
          </Stack>
          <ErasePersonDialog
            open={open === 'erase'}
            person={person}
            label={label}
            inventory={inventory}
            onClose={() => {
              setOpen(null);
              if (erased) {
                setErased(false);
                setResult(null);
              }
            }}
            onErased={() => setErased(true)}
          />
          <ExportPersonDialog open={open === 'export'} person={person} label={label} onClose={() => setOpen(null)} />
        </Box>
      )}
    </Stack>
  );
}
