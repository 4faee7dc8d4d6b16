/** A plan's limits and features as a checked list (plan cards, onboarding step 5, the Overview tab). */
import Check from '@mui/icons-material/Check';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { SxProps, Theme } from '@mui/material/styles';
import type { Plan } from '@agentdesk/functions/contract';
import { usePlanText } from './usePlanText';

/** `max`: only the first lines (onboarding shows four). */
export function PlanFeatureList({ plan, max, sx }: { plan: Pick<Plan, 'limits' | 'features'>; max?: number; sx?: SxProps<Theme> }) {
  const text = usePlanText();
  return (
    <List dense disablePadding sx={sx}>
      {text
        .lines(plan)
        .slice(0, max)
        .map((line) => (
          <ListItem key={line} disableGutters sx={{ alignItems: 'flex-start', py: 0.25 }}>
            <ListItemIcon sx={{ minWidth: 30, mt: 0.5 }}>
              <Check fontSize="small" color="success" />
            </ListItemIcon>
            <ListItemText primary={line} />
          </ListItem>
        ))}
    </List>
  );
}
