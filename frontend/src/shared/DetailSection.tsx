/** A titled card on a detail page (agent, contact) with label/value rows. */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** The card with its title and, on the right, an optional action (e.g. Edit). */
export function DetailSection({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, gap: 1 }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

/** A label and its value: side by side from sm up (the label column labelWidth px wide), stacked below. */
export function DetailRow({ label, labelWidth, children }: { label: string; labelWidth: number; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 1 }}>
      <Typography color="text.secondary" sx={{ width: { sm: labelWidth }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
    </Stack>
  );
}
