/** A page's heading: the h1 and its subtitle on the left, the page's actions on the right (below them on small screens). */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface PageHeaderProps {
  title: string;
  subtitle?: string;
  /** From which screen size the actions sit beside the title. */
  breakpoint?: 'sm' | 'md';
  /** How the actions line up with the title: centred, or on the subtitle's baseline. */
  align?: 'center' | 'flex-end';
  children?: ReactNode;
}

export function PageHeader({ title, subtitle, breakpoint = 'sm', align = 'center', children }: PageHeaderProps) {
  return (
    <Stack
      direction={{ xs: 'column', [breakpoint]: 'row' }}
      spacing={2}
      sx={{ justifyContent: 'space-between', alignItems: { [breakpoint]: align }, mb: 3 }}
    >
      <Box>
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        {subtitle !== undefined && <Typography color="text.secondary">{subtitle}</Typography>}
      </Box>
      {children}
    </Stack>
  );
}
