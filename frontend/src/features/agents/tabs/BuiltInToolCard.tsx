/**
 * The frame of a built-in tool of the Custom Tools tab (Bookings, WhatsApp tools): its icon, title
 * with the "Built-in" chip and explanation, an optional control beside them (a switch), and the
 * tool's own content below.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface BuiltInToolCardProps {
  /** Prefix of the card's ids: `${id}-title` labels it; `testId` is its data-testid. */
  id: string;
  testId: string;
  icon: ReactNode;
  title: string;
  explanation: string;
  /** Beside the title (a switch). */
  action?: ReactNode;
  children?: ReactNode;
}

export function BuiltInToolCard({ id, testId, icon, title, explanation, action, children }: BuiltInToolCardProps) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="article" aria-labelledby={`${id}-title`} data-testid={testId}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        {icon}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography id={`${id}-title`} component="h3" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
            <Chip size="small" label={t('agentTabs.tools.bookings.builtIn')} color="success" variant="outlined" />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {explanation}
          </Typography>
        </Box>
        {action}
      </Stack>
      {children}
    </Paper>
  );
}
