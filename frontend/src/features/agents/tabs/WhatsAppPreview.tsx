/**
 * What the agent's WhatsApp tools would send with a Test Agent reply (issue 31): a chip per file,
 * the business location with a link to check it on the map, and the options the customer could
 * tap (buttons, or a list behind its button). Nothing is sent from the test chat.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import FormatListBulletedOutlined from '@mui/icons-material/FormatListBulletedOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@agentdesk/functions/contract';
import { mapsLinkOf } from '../../../api/businessLocation';

export function WhatsAppPreview({ details }: { details: NonNullable<ChatMessage['details']> }) {
  const { t } = useTranslation();
  const { outbound = [], choices } = details;
  if (outbound.length === 0 && !choices) return null;
  return (
    <Box sx={{ mt: 1 }} data-testid="whatsapp-preview">
      <Typography variant="caption" color="text.secondary" component="p">
        {t('agentTabs.chat.whatsapp.wouldSend')}
      </Typography>
      <Stack spacing={0.75} sx={{ mt: 0.5 }}>
        {outbound.map((item, i) =>
          item.type === 'file' ? (
            <Box key={`f${i}`}>
              <Chip icon={<AttachFileOutlined />} label={item.fileName} variant="outlined" sx={{ maxWidth: '100%' }} />
              {item.caption && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, ml: 1, wordBreak: 'break-word' }}>
                  {item.caption}
                </Typography>
              )}
            </Box>
          ) : (
            <Stack key={`l${i}`} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <PlaceOutlined color="error" aria-hidden fontSize="small" sx={{ mt: 0.25 }} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {item.location.name}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
                  {item.location.address}
                </Typography>
                <Link href={mapsLinkOf(item.location)} target="_blank" rel="noopener noreferrer" variant="body2">
                  {t('agentTabs.chat.whatsapp.openMap')}
                </Link>
              </Box>
            </Stack>
          ),
        )}
        {choices && (
          <Box>
            {choices.kind === 'list' && (
              <Chip icon={<FormatListBulletedOutlined />} label={choices.buttonLabel ?? t('agentTabs.chat.whatsapp.listButton')} color="primary" size="small" sx={{ mb: 0.5 }} />
            )}
            <Stack direction="row" spacing={0.75} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label={t('agentTabs.chat.whatsapp.options')} role="list">
              {choices.options.map((option) => (
                <Chip key={option.id} role="listitem" label={option.title} title={option.description} variant="outlined" color="primary" />
              ))}
            </Stack>
          </Box>
        )}
      </Stack>
    </Box>
  );
}
