import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The AgentDesk mark and name. */
export function Brand({ inverse = false }: { inverse?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="img"
        src="/favicon.svg"
        alt=""
        sx={{ width: 30, height: 30, borderRadius: 1.5, ...(inverse && { boxShadow: '0 0 0 2px rgba(255,255,255,0.6)' }) }}
      />
      <Typography variant="h6" component="span" sx={{ fontWeight: 700, color: inverse ? 'common.white' : 'text.primary' }}>
        {t('app.name')}
      </Typography>
    </Box>
  );
}
