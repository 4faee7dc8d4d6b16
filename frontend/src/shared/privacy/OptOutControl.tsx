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
  // Long labels wrap inside the chip (a narrow column would cut "No quiere mensajes (escribió BAJA)").
  const wrap = { height: 'auto', maxWidth: '100%', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 } };
  if (!optOut) return <Chip size="small" variant="outlined" label={t('privacy.contact.receives')} data-testid="opt-out-chip" sx={wrap} />;
  const label = optOut.keyword === 'owner' ? t('privacy.contact.optedOutByOwner') : t('privacy.contact.optedOut', { word: optOut.keyword });
  return <Chip size="small" color="warning" icon={<NotificationsOffOutlined />} label={label} data-testid="opt-out-chip" sx={wrap} />;
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
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <OptOutChip optOut={optOut} />
      <Button size="small" onClick={() => change.mutate(!optOut)} disabled={change.isPending} sx={{ ml: -0.5 }}>
        {optOut ? t('privacy.contact.clearOptOut') : t('privacy.contact.markOptOut')}
      </Button>
    </Stack>
  );
}
