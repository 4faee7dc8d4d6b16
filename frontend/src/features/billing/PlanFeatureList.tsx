/** A plan's features as a checked list (plan cards, onboarding step 5, the Overview tab). */
import Check from '@mui/icons-material/Check';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { SxProps, Theme } from '@mui/material/styles';
import { usePlanText } from './usePlanText';

export function PlanFeatureList({ features, sx }: { features: readonly string[]; sx?: SxProps<Theme> }) {
  const text = usePlanText();
  return (
    <List dense disablePadding sx={sx}>
      {features.map((feature) => (
        <ListItem key={feature} disableGutters sx={{ alignItems: 'flex-start', py: 0.25 }}>
          <ListItemIcon sx={{ minWidth: 30, mt: 0.5 }}>
            <Check fontSize="small" color="success" />
          </ListItemIcon>
          <ListItemText primary={text.feature(feature)} />
        </ListItem>
      ))}
    </List>
  );
}
