/**
 * A customer's opt-out (issue 33) as a chip — "No quiere mensajes (escribió BAJA)" — and the way to
 * set or clear it by hand (PUT /api/privacy/opt-out; any member: an agent hears it on the phone).
 */
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import NotificationsOffOutlined from '@mui/icons-material/NotificationsOffOutlined';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OptOutState, PersonRefRequest } from '@agentdesk/functions/contract';
import { privacyApi } from '../../api/privacy';
import { errorMessage } from '../../i18n';
import { useToast } from '../useToast';
import './strings';

export function OptOutChip({ optOut }: { optOut: OptOutState | null }) {
  const { t } = useTranslation();
  if (!optOut) return <Chip size="small" variant="outlined" label={t('privacy.contact.receives')} data-testid="opt-out-chip" />;
  const label = optOut.keyword === 'owner' ? t('privacy.contact.optedOutByOwner') : t('privacy.contact.optedOut', { word: optOut.keyword });
  return <Chip size="small" color="warning" icon={<NotificationsOffOutlined />} label={label} data-testid="opt-out-chip" />;
}

export function OptOutControl({ person, optOut, onChanged }: { person: PersonRefRequest; optOut: OptOutState | null; onChanged: (optOut: OptOutState | null) => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const change = useMutation({
    mutationFn: (optedOut: boolean) => privacyApi.setOptOut(person, optedOut),
    onSuccess: (data) => {
      toast.success(t('privacy.contact.optOutSaved'));
      onChanged(data.optOut);
    },
    onError: (err) => toast.error(errorMessage(err, t('privacy.contact.optOutFailed'))),
  });
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <OptOutChip optOut={optOut} />
      <Button size="small" onClick={() => change.mutate(!optOut)} disabled={change.isPending}>
        {optOut ? t('privacy.contact.clearOptOut') : t('privacy.contact.markOptOut')}
      </Button>
    </Stack>
  );
}
