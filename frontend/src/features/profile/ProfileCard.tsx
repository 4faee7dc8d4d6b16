/** What the profile tabs share: a titled card, and the column form with its submit button (Settings, Security). */
import type { FormEventHandler, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A card with its title (h2) above the content; `titleGap` is the space under the title. */
export function ProfileCard({ title, titleGap = 2, children }: { title: string; titleGap?: number; children: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" sx={{ mb: titleGap }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

interface ProfileFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  submitLabel: string;
  /** The button's label while the form is being sent. */
  submittingLabel: string;
  /** Inside the form, before the fields (a hidden username for password managers). */
  before?: ReactNode;
  children: ReactNode;
}

/** The fields in one column (520 px at most), then the submit button, disabled while sending. */
export function ProfileForm({ onSubmit, submitting, submitLabel, submittingLabel, before, children }: ProfileFormProps) {
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      {before}
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        {children}
        <Box>
          <Button type="submit" variant="contained" disabled={submitting}>
            {submitting ? submittingLabel : submitLabel}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
