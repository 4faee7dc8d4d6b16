/** A title with a line of secondary text under it: a tab's or a section's heading, an empty state. */
import type { ElementType, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography, { type TypographyProps } from '@mui/material/Typography';

interface SectionHeadingProps {
  title: ReactNode;
  text: ReactNode;
  /** The title's look (h6 by default) and element (h2 by default). */
  variant?: TypographyProps['variant'];
  component?: ElementType;
}

export function SectionHeading({ title, text, variant = 'h6', component = 'h2' }: SectionHeadingProps) {
  return (
    <Box>
      <Typography variant={variant} component={component}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {text}
      </Typography>
    </Box>
  );
}
