/**
 * The two empty states (SPEC §2 Contacts): with a search or filter, 'No contacts found'; without,
 * 'No contacts in your directory yet', three hints and the premium-gated 'Import from WhatsApp'
 * and 'Add Your First Contact'.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DataObjectOutlined from '@mui/icons-material/DataObjectOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { PremiumGate } from '../../shared/PremiumGate';
import { EmptyPanel } from '../../shared/EmptyPanel';

export function NoMatchesState() {
  const { t } = useTranslation();
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2 }}>
      <SearchOffOutlined sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} aria-hidden />
      <Typography variant="h6" component="h2">
        {t('contacts.empty.filteredTitle')}
      </Typography>
      <Typography color="text.secondary">{t('contacts.empty.filteredBody')}</Typography>
    </Box>
  );
}

function Hint({ icon, title, body }: { icon: ReactNode; title: string; body: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, textAlign: 'left', bgcolor: 'background.default', flex: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5, color: 'primary.main' }}>
        {icon}
        <Typography variant="subtitle2" component="h3" color="text.primary">
          {title}
        </Typography>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {body}
      </Typography>
    </Paper>
  );
}

interface EmptyDirectoryStateProps {
  onAdd: () => void;
  onImportWhatsApp: () => void;
  /** The import from WhatsApp is running. */
  importing: boolean;
}

export function EmptyDirectoryState({ onAdd, onImportWhatsApp, importing }: EmptyDirectoryStateProps) {
  const { t } = useTranslation();
  return (
    <EmptyPanel
      icon={<ContactsOutlined sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} aria-hidden />}
      title={t('contacts.empty.title')}
      body={t('contacts.empty.body')}
      sx={{ py: { xs: 5, md: 7 }, px: { xs: 2, md: 4 } }}
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ maxWidth: 860, mx: 'auto', mb: 4 }}>
        <Hint icon={<CloudUploadOutlined fontSize="small" />} title={t('contacts.empty.hints.importTitle')} body={t('contacts.empty.hints.importBody')} />
        <Hint icon={<PhoneOutlined fontSize="small" />} title={t('contacts.empty.hints.phoneTitle')} body={t('contacts.empty.hints.phoneBody')} />
        <Hint icon={<DataObjectOutlined fontSize="small" />} title={t('contacts.empty.hints.customTitle')} body={t('contacts.empty.hints.customBody')} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', alignItems: 'center' }}>
        <Box>
          <PremiumGate tooltip={t('contacts.empty.importTooltip')}>
            <Button variant="outlined" startIcon={<WhatsApp />} onClick={onImportWhatsApp} disabled={importing}>
              {importing ? t('contacts.whatsappImport.importing') : t('contacts.empty.importWhatsApp')}
            </Button>
          </PremiumGate>
        </Box>
        <Box>
          <PremiumGate tooltip={t('contacts.empty.addTooltip')}>
            <Button variant="contained" startIcon={<PersonAddAltOutlined />} onClick={onAdd}>
              {t('contacts.empty.addFirst')}
            </Button>
          </PremiumGate>
        </Box>
      </Stack>
    </EmptyPanel>
  );
}
