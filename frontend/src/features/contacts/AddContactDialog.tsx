/**
 * 'Add New Contact' (SPEC §2 Contacts, §5 New contact): first and last name (issue 29), Phone Number (placeholder
 * +1234567890, hint '* Phone number is required.'), Email, custom field rows; Cancel clears
 * everything, including the rows. A duplicate number offers a link to the existing contact.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { contactMessages } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { fieldProps } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { usePhoneFieldProps } from '../../shared/usePhoneFieldProps';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { contactForm, createInput, EMPTY_CONTACT_FORM, type ContactFormInput, type ContactFormValues } from './form';
import { contactErrorMessage, translateContactMessage } from './i18n';
import { useCreateContact } from './queries';
import { FormDialog } from '../../shared/FormDialog';

interface AddContactDialogProps {
  open: boolean;
  onClose: () => void;
}

export function AddContactDialog({ open, onClose }: AddContactDialogProps) {
  const { t } = useTranslation();
  const phone = usePhoneFieldProps();
  const toast = useToast();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const create = useCreateContact();
  const [existingId, setExistingId] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormInput, unknown, ContactFormValues>({ resolver: zodResolver(contactForm), defaultValues: EMPTY_CONTACT_FORM });

  const clearAndClose = () => {
    reset(EMPTY_CONTACT_FORM);
    setExistingId(null);
    onClose();
  };
  const close = () => {
    if (!isSubmitting) clearAndClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setExistingId(null);
    try {
      await create.mutateAsync(createInput(values));
      toast.success(t('contacts.toasts.added'));
      reset(EMPTY_CONTACT_FORM);
      onClose();
    } catch (err) {
      const message = contactErrorMessage(err, t('contacts.toasts.addFailed'));
      toast.error(message);
      if (err instanceof ApiError && err.serverMessage) {
        if (err.status === 409) {
          setError('phoneNumber', { message: err.serverMessage });
          const id = err.body?.existingContactId;
          if (typeof id === 'string' && id) setExistingId(id);
        } else if (err.serverMessage.startsWith(contactMessages.phoneInvalid) || err.serverMessage === contactMessages.phoneRequired) {
          setError('phoneNumber', { message: err.serverMessage });
        } else if (err.serverMessage === contactMessages.emailInvalid) {
          setError('email', { message: err.serverMessage });
        }
      }
    }
  });

  // Server messages (e.g. the duplicate's) carry values; translate them like toasts do.
  const phoneError = errors.phoneNumber?.message
    ? { error: true, helperText: translateContactMessage(errors.phoneNumber.message) }
    : { error: false, helperText: t('contacts.form.phoneHint') };

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={t('contacts.form.addTitle')}
      fullScreen={fullScreen}
      onSubmit={onSubmit}
      cancelLabel={t('contacts.form.cancel')}
      submitLabel={t('contacts.form.submit')}
      pendingLabel={t('contacts.form.submitting')}
      pending={isSubmitting}
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('contacts.form.firstName')}
            placeholder={t('contacts.form.firstNamePlaceholder')}
            autoComplete="off"
            autoFocus
            fullWidth
            {...register('firstName')}
            {...fieldProps(errors.firstName)}
          />
          <TextField
            label={t('contacts.form.lastName')}
            placeholder={t('contacts.form.lastNamePlaceholder')}
            autoComplete="off"
            fullWidth
            {...register('lastName')}
            {...fieldProps(errors.lastName)}
          />
        </Stack>
        <TextField
          label={t('contacts.form.phone')}
          placeholder={phone.placeholder ?? t('contacts.form.phonePlaceholder')}
          type="tel"
          autoComplete="off"
          slotProps={{ input: { startAdornment: phone.startAdornment } }}
          {...register('phoneNumber')}
          {...phoneError}
        />
        {existingId && (
          <Alert severity="info" sx={{ py: 0 }}>
            <Button component={RouterLink} to={`/contacts/${existingId}`} size="small" onClick={clearAndClose}>
              {t('contacts.form.viewExisting')}
            </Button>
          </Alert>
        )}
        <TextField
          label={t('contacts.form.email')}
          placeholder={t('contacts.form.emailPlaceholder')}
          type="email"
          autoComplete="off"
          {...register('email')}
          {...fieldProps(errors.email)}
        />
        <CustomFieldsEditor control={control} register={register} />
      </Stack>
    </FormDialog>
  );
}
