import { useState } from 'react';
import type { IntegrationView } from '@agentdesk/functions/contract';

/**
 * Which view a modal whose setup answers with webhook details shows (WhatsApp, Twilio): the form
 * when not connected or on Edit settings, else the details; `saved` is the answer of a setup
 * saved in this dialog, kept until it closes.
 */
export function useSetupView<R>(integration: IntegrationView | null, onClose: () => void) {
  const [saved, setSaved] = useState<R | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  const [editing, setEditing] = useState(!integration?.isActive);
  return {
    saved,
    justSaved,
    showForm: editing || (!integration && !justSaved),
    edit: () => setEditing(true),
    onSaved: (result: R | null) => {
      setSaved(result);
      setJustSaved(true);
      setEditing(false);
    },
    onCancel: () => (integration?.isActive || justSaved ? setEditing(false) : onClose()),
  };
}
