/** The pieces the agent tabs share: their heading, the loading placeholder and the empty state. */
import type { ReactNode } from 'react';
import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { SectionHeading } from '../../../shared/SectionHeading';

/** The tab's title and intro, with its buttons (if any) on the right from sm up. */
export function TabHeader({ title, intro, actions }: { title: string; intro: string; actions?: ReactNode }) {
  const heading = <SectionHeading title={title} text={intro} />;
  if (!actions) return heading;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
      {heading}
      {actions}
    </Stack>
  );
}

/** Two grey rows while the list's first load runs. */
export function ListSkeleton({ label, height, spacing }: { label: string; height: number; spacing: number }) {
  return (
    <Stack spacing={spacing} role="status" aria-busy="true" aria-label={label}>
      <Skeleton variant="rounded" height={height} />
      <Skeleton variant="rounded" height={height} />
    </Stack>
  );
}

/** A large faded icon, the empty title and a hint. */
export function EmptyList({ icon: Icon, title, body }: { icon: SvgIconComponent; title: string; body: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: 4 }}>
      <Icon sx={{ fontSize: 48, color: 'text.disabled' }} aria-hidden />
      <SectionHeading variant="subtitle1" component="p" title={title} text={body} />
    </Box>
  );
}
