/**
 * Premium-gated actions (SPEC §6): with an active subscription the children work as usual;
 * without one they are dimmed, show the tooltip 'This feature requires a premium subscription'
 * (or the caller's text, e.g. 'Premium subscription required to add contacts manually') and a
 * click or Enter/Space goes to /subscription instead.
 */
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuth } from './session';

export const SUBSCRIPTION_PATH = '/subscription';

interface PremiumGateProps {
  children: ReactNode;
  /** Tooltip text; defaults to 'This feature requires a premium subscription'. */
  tooltip?: string;
  /** Overrides the signed-in user's flag (tests, screens that already know). */
  active?: boolean;
  /** Stretch to the container's width (for full-width buttons). */
  fullWidth?: boolean;
}

export function PremiumGate({ children, tooltip, active, fullWidth = false }: PremiumGateProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const allowed = active ?? Boolean(user?.hasActiveSubscription);
  if (allowed) return <>{children}</>;

  const goToSubscription = (event: MouseEvent | KeyboardEvent) => {
    event.preventDefault();
    event.stopPropagation();
    navigate(SUBSCRIPTION_PATH);
  };

  return (
    <Tooltip title={tooltip ?? t('common.premiumRequired')} arrow>
      <Box
        component="span"
        data-premium-gate=""
        onClickCapture={goToSubscription}
        onKeyDownCapture={(event: KeyboardEvent) => {
          if (event.key === 'Enter' || event.key === ' ') goToSubscription(event);
        }}
        sx={{
          display: fullWidth ? 'block' : 'inline-block',
          opacity: 0.5,
          cursor: 'pointer',
          '& *': { cursor: 'pointer !important' },
        }}
      >
        {children}
      </Box>
    </Tooltip>
  );
}
