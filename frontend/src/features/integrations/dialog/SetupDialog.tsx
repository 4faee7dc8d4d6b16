/**
 * The frame every integration modal shares (SPEC §2 Integrations, §8): a dialog (full screen on
 * small screens, titled `<name>-dialog-title`) showing either the setup form or the connected view,
 * with the stored-settings test and Disconnect behind a confirmation. The modal decides which view
 * shows and supplies the form and the details.
 */
import type { ReactNode } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { IntegrationType, IntegrationView } from '@agentdesk/functions/contract';
import { useConnectionTest, type TestMutation } from './connectionTest';
import { DetailsView } from './DetailsView';
import type { IntegrationDialogName } from './names';
import { useDisconnect } from './useDisconnect';

/** What the integrations page hands each modal. */
export interface IntegrationDialogProps {
  open: boolean;
  onClose: () => void;
  /** The stored integration (from GET /api/integrations), or null when there is none. */
  integration: IntegrationView | null;
}

interface SetupDialogProps extends Omit<IntegrationDialogProps, 'integration'> {
  name: IntegrationDialogName;
  type: IntegrationType;
  /** The connection test call: the connected view tests the stored settings with it. */
  test: TestMutation<Record<string, never>>;
  /** The setup form rather than the connected view. */
  showForm: boolean;
  form: ReactNode;
  /** A setup was saved in this dialog: the connected view says so. */
  justSaved: boolean;
  /** Whether there is something to disconnect (the connected view's Disconnect button). */
  canDisconnect: boolean;
  onEdit: () => void;
  detailsSpacing: number;
  /** The connection details. */
  children: ReactNode;
}

export function SetupDialog({ name, type, open, onClose, test, showForm, form, justSaved, canDisconnect, onEdit, detailsSpacing, children }: SetupDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const disconnect = useDisconnect(name, type, onClose);
  const storedTest = useConnectionTest(name, test);
  return (
    <Dialog open={open} onClose={disconnect.close} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={`${name}-dialog-title`}>
      <DialogTitle id={`${name}-dialog-title`}>{showForm ? t(`integrations.${name}.setupTitle`) : t(`integrations.${name}.detailsTitle`)}</DialogTitle>
      {showForm ? (
        form
      ) : (
        <DetailsView
          name={name}
          justSaved={justSaved}
          spacing={detailsSpacing}
          storedTest={storedTest}
          onDisconnect={canDisconnect ? disconnect.ask : undefined}
          onEdit={onEdit}
          onClose={disconnect.close}
        >
          {children}
        </DetailsView>
      )}
      {disconnect.confirmDialog}
    </Dialog>
  );
}
