/**
 * /contacts/{id} (SPEC §2 Contact detail): view mode and edit mode (Save / Cancel) with contact
 * information (first and last name), custom fields, tags, notes and system information (the
 * origin in words, issue 29); Delete asks first. 'Contact not found' goes back to /contacts. The contact's WhatsApp
 * conversations and calls get their place here once those screens exist.
 */
import { useEffect, useState, type ReactNode } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Cancel from '@mui/icons-material/Cancel';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { DetailRow, DetailSection } from '../../shared/DetailSection';
import { FullPageSpinner } from '../../shared/FullPageSpinner';
import { fieldProps } from '../../shared/forms';
import { usePageTitle } from '../../shared/usePageTitle';
import { useToast } from '../../shared/useToast';
import { usePhoneFieldProps } from '../../shared/usePhoneFieldProps';
import { ContactTimelineCard } from './ContactTimelineCard';
import { ContactPrivacySection } from './ContactPrivacySection';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { DeleteContactDialog } from './DeleteContactDialog';
import { addTag, contactOrigin, displayName, removeTag } from './fields';
import { contactForm, formFromContact, updateInput, type ContactFormInput, type ContactFormValues } from './form';
import { contactErrorMessage, translateContactMessage } from './i18n';
import { formatPhone, whatsappLink } from '../../shared/phone';
import { useContact, useDeleteContact, useUpdateContact } from './queries';
import type { Contact } from './types';
import { formatDate } from '../../shared/intl';
import { RetryAlert } from '../../shared/RetryAlert';

const FORM_ID = 'contact-edit-form';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DetailRow label={label} labelWidth={160}>
      {children}
    </DetailRow>
  );
}

function useDateTime() {
  const { i18n } = useTranslation();
  return (iso: string | undefined) => formatDate(i18n.language, iso) ?? '';
}

function TagsEditor({ tags, onChange }: { tags: string[]; onChange: (tags: string[]) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const add = () => {
    onChange(addTag(tags, input));
    setInput('');
  };
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, mb: tags.length ? 2 : 0 }}>
        {tags.map((tag) => (
          <Chip key={tag} label={tag} onDelete={() => onChange(removeTag(tags, tag))} deleteIcon={<Cancel titleAccess={t('contacts.detail.removeTag', { tag })} />} />
        ))}
      </Stack>
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          label={t('contacts.detail.addTag')}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="outlined" onClick={add} disabled={!input.trim()}>
          {t('contacts.detail.add')}
        </Button>
      </Stack>
    </Box>
  );
}

function ContactView({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  const phoneField = usePhoneFieldProps();
  const toast = useToast();
  const navigate = useNavigate();
  const formatDateTime = useDateTime();
  const update = useUpdateContact(contact._id);
  const remove = useDeleteContact();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const name = displayName(contact) || t('contacts.unnamed');
  usePageTitle(name);

  const {
    register,
    control,
    handleSubmit,
    reset,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormInput, unknown, ContactFormValues>({ resolver: zodResolver(contactForm), defaultValues: formFromContact(contact) });
  const tags = useWatch({ control, name: 'tags' }) ?? [];

  const startEditing = () => {
    reset(formFromContact(contact));
    setEditing(true);
  };
  const cancelEditing = () => {
    reset(formFromContact(contact));
    setEditing(false);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(updateInput(values));
      toast.success(t('contacts.toasts.updated'));
      reset(formFromContact(saved));
      setEditing(false);
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.toasts.updateFailed')));
      if (err instanceof ApiError && err.serverMessage && (err.status === 409 || /phone/i.test(err.serverMessage))) {
        setError('phoneNumber', { message: err.serverMessage });
      }
    }
  });

  const onDelete = async () => {
    try {
      await remove.mutateAsync(contact._id);
      toast.success(t('contacts.toasts.deleted'));
      navigate('/contacts', { replace: true });
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.toasts.deleteFailed')));
    }
  };

  const phone = formatPhone(contact.phoneNumber);
  const wa = whatsappLink(contact.phoneNumber);
  const customFields = Object.entries(contact.customFields ?? {});
  const savedTags = contact.metadata?.tags ?? [];
  const phoneError = errors.phoneNumber?.message ? { error: true, helperText: translateContactMessage(errors.phoneNumber.message) } : {};

  return (
    <Box>
      <Button component={RouterLink} to="/contacts" startIcon={<ArrowBack />} sx={{ mb: 2, ml: -1 }}>
        {t('contacts.detail.back')}
      </Button>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 3 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', fontSize: 24 }} aria-hidden>
            {name.charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              {phone && <Typography color="text.secondary">{phone}</Typography>}
              {contact.isWAContact && <Chip size="small" color="success" variant="outlined" icon={<WhatsApp />} label={t('contacts.detail.waContact')} />}
            </Stack>
          </Box>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          {editing ? (
            <>
              <Button variant="outlined" onClick={cancelEditing} disabled={isSubmitting}>
                {t('contacts.detail.cancel')}
              </Button>
              <Button type="submit" form={FORM_ID} variant="contained" disabled={isSubmitting}>
                {isSubmitting ? t('contacts.detail.saving') : t('contacts.detail.save')}
              </Button>
            </>
          ) : (
            <>
              <Button variant="contained" startIcon={<EditOutlined />} onClick={startEditing}>
                {t('contacts.detail.edit')}
              </Button>
              <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
                {t('contacts.detail.delete')}
              </Button>
            </>
          )}
        </Stack>
      </Stack>

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Stack spacing={3} component={editing ? 'form' : 'div'} id={editing ? FORM_ID : undefined} noValidate={editing || undefined} onSubmit={editing ? onSubmit : undefined}>
          <DetailSection title={t('contacts.detail.info')}>
            {editing ? (
              <Stack spacing={2.5} sx={{ pt: 1, maxWidth: 560 }}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField label={t('contacts.form.firstName')} autoComplete="off" fullWidth {...register('firstName')} {...fieldProps(errors.firstName)} />
                  <TextField label={t('contacts.form.lastName')} autoComplete="off" fullWidth {...register('lastName')} {...fieldProps(errors.lastName)} />
                </Stack>
                <TextField
                  label={t('contacts.form.phone')}
                  placeholder={phoneField.placeholder ?? t('contacts.form.phonePlaceholder')}
                  type="tel"
                  autoComplete="off"
                  slotProps={{ input: { startAdornment: phoneField.startAdornment } }}
                  {...register('phoneNumber')}
                  {...phoneError}
                />
                <TextField label={t('contacts.form.email')} type="email" autoComplete="off" {...register('email')} {...fieldProps(errors.email)} />
              </Stack>
            ) : (
              <>
                <Row label={t('contacts.form.name')}>{contact.name || t('contacts.detail.notSet')}</Row>
                <Divider />
                <Row label={t('contacts.form.phone')}>
                  {phone ? (
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <span>{phone}</span>
                      {wa && (
                        <Link href={wa} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 400 }}>
                          <WhatsApp fontSize="small" aria-hidden />
                          {t('contacts.detail.openWhatsApp')}
                        </Link>
                      )}
                    </Stack>
                  ) : (
                    t('contacts.detail.notSet')
                  )}
                </Row>
                <Divider />
                <Row label={t('contacts.form.email')}>
                  {contact.email ? <Link href={`mailto:${contact.email}`}>{contact.email}</Link> : t('contacts.detail.notSet')}
                </Row>
              </>
            )}
          </DetailSection>

          <DetailSection title={t('contacts.detail.customFields')}>
            {editing ? (
              <CustomFieldsEditor control={control} register={register} maxHeight="none" showTitle={false} />
            ) : customFields.length === 0 ? (
              <Typography color="text.secondary">{t('contacts.detail.noCustomFields')}</Typography>
            ) : (
              customFields.map(([key, value], i) => (
                <Box key={key}>
                  {i > 0 && <Divider />}
                  <Row label={key}>{value}</Row>
                </Box>
              ))
            )}
          </DetailSection>

          <DetailSection title={t('contacts.detail.tags')}>
            {editing ? (
              <TagsEditor tags={tags} onChange={(next) => setValue('tags', next, { shouldDirty: true })} />
            ) : savedTags.length === 0 ? (
              <Typography color="text.secondary">{t('contacts.detail.noTags')}</Typography>
            ) : (
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                {savedTags.map((tag) => (
                  <Chip key={tag} label={tag} color="primary" variant="outlined" />
                ))}
              </Stack>
            )}
          </DetailSection>

          <DetailSection title={t('contacts.detail.notes')}>
            {editing ? (
              <TextField label={t('contacts.detail.notes')} multiline minRows={4} {...register('notes')} {...fieldProps(errors.notes)} />
            ) : contact.metadata?.notes ? (
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{contact.metadata.notes}</Typography>
            ) : (
              <Typography color="text.secondary">{t('contacts.detail.noNotes')}</Typography>
            )}
          </DetailSection>
        </Stack>

        <Stack spacing={3}>
          <DetailSection title={t('contacts.detail.system')}>
            <Row label={t('contacts.detail.origin')}>{t(`contacts.origins.${contactOrigin(contact)}`)}</Row>
            <Divider />
            <Row label={t('contacts.detail.waContact')}>{contact.isWAContact ? t('contacts.detail.yes') : t('contacts.detail.no')}</Row>
            <Divider />
            <Row label={t('contacts.detail.created')}>{formatDateTime(contact.createdAt)}</Row>
            <Divider />
            <Row label={t('contacts.detail.updated')}>{formatDateTime(contact.updatedAt)}</Row>
            {contact.metadata?.importedAt && (
              <>
                <Divider />
                <Row label={t('contacts.detail.imported')}>{formatDateTime(contact.metadata.importedAt)}</Row>
              </>
            )}
            {contact.metadata?.clientId && (
              <>
                <Divider />
                <Row label={t('contacts.detail.clientId')}>{contact.metadata.clientId}</Row>
              </>
            )}
          </DetailSection>

          <ContactPrivacySection contact={contact} name={name} />

          <DetailSection title={t('contacts.detail.activity')}>
            <Box data-testid="contact-activity">
              <ContactTimelineCard contactId={contact._id} />
            </Box>
          </DetailSection>
        </Stack>
      </Box>

      <DeleteContactDialog name={deleting ? name : null} pending={remove.isPending} onCancel={() => setDeleting(false)} onConfirm={() => void onDelete()} />
    </Box>
  );
}

export default function ContactDetailPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const contact = useContact(id);
  const { error, errorUpdatedAt } = contact;
  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
  usePageTitle(t('pages.contactDetail'));

  // SPEC §8: 'Contact not found' goes back to /contacts; other failures 'Failed to load contact'.
  useEffect(() => {
    if (!error) return;
    if (notFound) {
      toast.error(t('contacts.toasts.notFound'));
      navigate('/contacts', { replace: true });
    } else {
      toast.error(contactErrorMessage(error, t('contacts.toasts.loadOneFailed')));
    }
  }, [error, errorUpdatedAt, notFound, toast, t, navigate]);

  if (contact.data) return <ContactView key={contact.data._id} contact={contact.data} />;
  if (contact.isError && !notFound) {
    return (
      <Box>
        <Button component={RouterLink} to="/contacts" startIcon={<ArrowBack />} sx={{ mb: 2, ml: -1 }}>
          {t('contacts.detail.back')}
        </Button>
        <RetryAlert retryLabel={t('contacts.detail.retry')} onRetry={() => void contact.refetch()}>
          {contactErrorMessage(contact.error, t('contacts.toasts.loadOneFailed'))}
        </RetryAlert>
      </Box>
    );
  }
  return <FullPageSpinner inline />;
}
