/**
 * The contacts page's header actions: Export CSV, Import from WhatsApp, Import CSV and Add contact
 * (the imports and Add behind the premium gate). On a phone (issue 29) four buttons do not fit a
 * row: Add contact stays a button and the others go in a "More contact actions" menu.
 */
import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PremiumGate, SUBSCRIPTION_PATH } from '../../shared/PremiumGate';
import { useAuth } from '../../shared/session';

interface ContactsHeaderActionsProps {
  onExport: () => void;
  onImportWhatsApp: () => void;
  importingWhatsApp: boolean;
  onImportCsv: () => void;
  onAdd: () => void;
}

export function ContactsHeaderActions({ onExport, onImportWhatsApp, importingWhatsApp, onImportCsv, onAdd }: ContactsHeaderActionsProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const { user } = useAuth();
  const navigate = useNavigate();

  const whatsappLabel = importingWhatsApp ? t('contacts.whatsappImport.importing') : t('contacts.empty.importWhatsApp');
  const add = (
    <PremiumGate>
      <Button variant="contained" startIcon={<PersonAddAltOutlined />} onClick={onAdd}>
        {t('contacts.addContact')}
      </Button>
    </PremiumGate>
  );

  if (!phone) {
    return (
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={onExport}>
          {t('contacts.exportCsv')}
        </Button>
        <PremiumGate tooltip={t('contacts.empty.importTooltip')}>
          <Button variant="outlined" startIcon={<WhatsApp />} onClick={onImportWhatsApp} disabled={importingWhatsApp}>
            {whatsappLabel}
          </Button>
        </PremiumGate>
        <PremiumGate>
          <Button variant="outlined" startIcon={<FileUploadOutlined />} onClick={onImportCsv}>
            {t('contacts.importCsv')}
          </Button>
        </PremiumGate>
        {add}
      </Stack>
    );
  }

  // A menu item runs its action (closing the menu first); a premium one leads to the plans without a subscription, as PremiumGate does.
  const run = (action: () => void, premium: boolean) => () => {
    setAnchor(null);
    if (premium && !user?.hasActiveSubscription) navigate(SUBSCRIPTION_PATH);
    else action();
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {add}
      <IconButton
        aria-label={t('contacts.moreActions')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ width: 44, height: 44 }}
      >
        <MoreVert />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={run(onExport, false)} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <FileDownloadOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('contacts.exportCsv')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={run(onImportCsv, true)} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <FileUploadOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('contacts.importCsv')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={run(onImportWhatsApp, true)} disabled={importingWhatsApp} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <WhatsApp fontSize="small" />
          </ListItemIcon>
          <ListItemText>{whatsappLabel}</ListItemText>
        </MenuItem>
      </Menu>
    </Stack>
  );
}
