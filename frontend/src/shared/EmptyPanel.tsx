import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';

interface EmptyPanelProps {
  /** A large icon above the title (decorative). */
  icon: ReactNode;
  title: string;
  body: string;
  /** On a card of its own (a page's only content) rather than inside one. */
  card?: boolean;
  /** Padding and other layout of the panel. */
  sx?: SxProps<Theme>;
  'data-testid'?: string;
  /** The actions below the text. */
  children?: ReactNode;
}

/** A centred 'nothing here yet' or 'needs something first' panel: icon, title, text, actions. */
export function EmptyPanel({ icon, title, body, card = false, sx, 'data-testid': testId, children }: EmptyPanelProps) {
  const content = (
    <>
      {icon}
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 520, mx: 'auto', mb: 3 }}>
        {body}
      </Typography>
      {children}
    </>
  );
  const style = [{ textAlign: 'center' } as const, ...(Array.isArray(sx) ? sx : [sx])];
  return card ? (
    <Card sx={style} data-testid={testId}>
      {content}
    </Card>
  ) : (
    <Box sx={style} data-testid={testId}>
      {content}
    </Box>
  );
}
