/** A chat transcript's bubble (WhatsApp conversation, call transcript): own turns on the right in the primary colour. */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface ChatBubbleProps {
  /** The user's side (our messages, the caller's turns): right-aligned, primary colour. */
  own: boolean;
  /** The caption under the bubble: who, when, status. */
  meta: string;
  /** Test and state attributes on the row (data-testid, data-…). */
  attributes: Record<`data-${string}`, string>;
  children: ReactNode;
  /** Shown under the caption (e.g. a delivery error). */
  after?: ReactNode;
}

export function ChatBubble({ own, meta, attributes, children, after }: ChatBubbleProps) {
  return (
    <Stack sx={{ alignItems: own ? 'flex-end' : 'flex-start' }} {...attributes}>
      <Box
        sx={{
          maxWidth: '85%',
          px: 1.5,
          py: 1,
          borderRadius: 2,
          bgcolor: own ? 'primary.main' : 'background.paper',
          color: own ? 'primary.contrastText' : 'text.primary',
          border: own ? 0 : 1,
          borderColor: 'divider',
        }}
      >
        {children}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ mt: 0.25 }}>
        {meta}
      </Typography>
      {after}
    </Stack>
  );
}

/** A bubble's text, keeping its line breaks. */
export function BubbleText({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  );
}
