import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IntegrationType } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { useToast } from '../../../shared/useToast';
import { apiErrorText, translateContractText } from '../../../shared/apiTexts';
import { useDisconnectIntegration } from '../queries';
import type { IntegrationDialogName } from './names';

/**
 * Disconnect with a confirmation: `ask` opens it, `close` closes the modal unless a disconnect is
 * running, and `confirmDialog` is the confirmation to render inside the modal. On success it toasts
 * and closes the modal; on failure it toasts the error and stays open.
 */
export function useDisconnect(name: IntegrationDialogName, type: IntegrationType, onClose: () => void) {
  const { t } = useTranslation();
  const toast = useToast();
  const disconnect = useDisconnectIntegration();
  const [confirming, setConfirming] = useState(false);

  const close = () => {
    if (disconnect.isPending) return;
    onClose();
  };

  const onConfirm = async () => {
    try {
      const env = await disconnect.mutateAsync(type);
      toast.success(env.message ? translateContractText(env.message) : t('integrations.disconnected'));
      setConfirming(false);
      onClose();
    } catch (err) {
      toast.error(apiErrorText(err, t(`integrations.${name}.disconnectFailed`)));
    }
  };

  const confirmDialog = (
    <ConfirmDialog
      open={confirming}
      title={t(`integrations.${name}.disconnectTitle`)}
      body={t(`integrations.${name}.disconnectBody`)}
      confirmLabel={t('integrations.disconnect')}
      pendingLabel={t('integrations.disconnecting')}
      pending={disconnect.isPending}
      onCancel={() => setConfirming(false)}
      onConfirm={() => void onConfirm()}
    />
  );

  return { close, ask: () => setConfirming(true), confirmDialog };
}
