/** The board's Mine / Unassigned / All filter (issue 17), as a toggle group with text labels. */
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import type { AssigneeFilterParam } from '@agentdesk/functions/contract';
import './i18n';

const OPTIONS: Record<AssigneeFilterParam, string> = { me: 'inbox.filter.mine', none: 'inbox.filter.none', all: 'inbox.filter.all' };

export function AssigneeFilter({ value, onChange }: { value: AssigneeFilterParam; onChange: (value: AssigneeFilterParam) => void }) {
  const { t } = useTranslation();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_, next: AssigneeFilterParam | null) => next && onChange(next)}
      aria-label={t('inbox.filter.label')}
      sx={{ flex: 'none' }}
    >
      {(['me', 'none', 'all'] as const).map((option) => (
        <ToggleButton key={option} value={option} sx={{ px: 1.5, textTransform: 'none' }}>
          {t(OPTIONS[option])}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
