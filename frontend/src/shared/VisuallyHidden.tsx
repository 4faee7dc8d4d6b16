/**
 * Text for screen readers only: read as part of its parent's name, not shown. Used where the
 * visible words need context (an icon button's purpose, why a control is disabled, the action of
 * a card), so an accessible name still starts from what is on screen (WCAG 2.5.3).
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

export const VISUALLY_HIDDEN = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

export function VisuallyHidden({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <Box component="span" id={id} sx={VISUALLY_HIDDEN}>
      {children}
    </Box>
  );
}
