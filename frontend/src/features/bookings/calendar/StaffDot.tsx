/** A staff member's colour as a small dot beside their name (decorative: the name says who). */
import Box from '@mui/material/Box';

export function StaffDot({ colour }: { colour: string | undefined }) {
  return <Box component="span" aria-hidden sx={{ display: 'inline-block', width: 12, height: 12, borderRadius: '50%', bgcolor: colour ?? 'grey.500', flex: 'none' }} />;
}
