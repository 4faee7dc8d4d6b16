/**
 * The connected view: `integrations.<name>.connectedNote` after a save in this dialog, the details,
 * the stored-settings test outcome, and Disconnect / Test connection / Edit settings / Close.
 */
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import LinkOff from '@mui/icons-material/LinkOff';
import { useTranslation } from 'react-i18next';
import { TestConnectionButton, TestResultStatus, type ConnectionTest } from './connectionTest';
import type { IntegrationDialogName } from './names';

/** Under the connection details: Disconnect (when there is something to disconnect), Test connection (the stored settings), Edit settings, Close. */
function DetailsActions({
  name,
  onDisconnect,
  testPending,
  onTest,
  onEdit,
  onClose,
}: {
  name: IntegrationDialogName;
  /** Asks to disconnect; without it there is no Disconnect button. */
  onDisconnect?: () => void;
  testPending: boolean;
  onTest: () => void;
  onEdit: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
      {onDisconnect && (
        <Button color="error" startIcon={<LinkOff />} onClick={onDisconnect}>
          {t('integrations.disconnect')}
        </Button>
      )}
      <Box sx={{ flex: 1 }} />
      <TestConnectionButton name={name} pending={testPending} disabled={testPending} onClick={onTest} />
      <Button variant="outlined" onClick={onEdit}>
        {t(`integrations.${name}.edit`)}
      </Button>
      <Button variant="contained" onClick={onClose}>
        {t('common.close')}
      </Button>
    </DialogActions>
  );
}

export function DetailsView({
  name,
  justSaved,
  spacing,
  storedTest,
  onDisconnect,
  onEdit,
  onClose,
  children,
}: {
  name: IntegrationDialogName;
  justSaved: boolean;
  spacing: number;
  /** The test of the stored settings (run with `{}`). */
  storedTest: ConnectionTest<Record<string, never>>;
  onDisconnect?: () => void;
  onEdit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <DialogContent>
        <Stack spacing={spacing}>
          {justSaved && <Alert severity="success">{t(`integrations.${name}.connectedNote`)}</Alert>}
          {children}
          <TestResultStatus name={name} outcome={storedTest.outcome} />
        </Stack>
      </DialogContent>
      <DetailsActions
        name={name}
        onDisconnect={onDisconnect}
        testPending={storedTest.pending}
        onTest={() => void storedTest.run({})}
        onEdit={() => {
          storedTest.clear();
          onEdit();
        }}
        onClose={onClose}
      />
    </>
  );
}
